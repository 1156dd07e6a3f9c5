import { readFile, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import lockfile from 'proper-lockfile'
import { ConfigError } from '../../core/errors/config-error.js'

// A holder keeps refreshing its lock; a lock not refreshed for this long belongs to a
// process that died (kill -9, a crash, a lost machine) and is taken over (docs/running-for-a-team.md#one-writer-per-state-file).
const STALE_MS = 3_000
const RETRY_MS = 250

/** Who holds a state file, written beside its lock so a second process can name it. */
interface Owner {
  pid: number
  host: string
}

/**
 * Makes this process the only writer of the state file at `path`, or throws a ConfigError naming
 * the process that is. The lock is proper-lockfile's: a `<path>.lock` directory (made atomically)
 * whose time the holder refreshes, so a lock left by a killed process goes stale and the next
 * start takes it over instead of being blocked; the owner file beside it names the holder's pid.
 * `onCompromised` is called if another process ever takes the lock away (the holder stalled for
 * longer than the stale time): the caller must stop writing.
 *
 * @example
 * const release = await lockStateFile('./state.jsonl', (error) => exitWith(error.message))
 */
export async function lockStateFile(path: string, onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
  const ownerPath = `${path}.lock-owner`
  const deadline = Date.now() + STALE_MS + 4 * RETRY_MS
  for (;;) {
    try {
      const release = await lockfile.lock(path, { realpath: false, stale: STALE_MS, update: 1_000, retries: 0, onCompromised })
      await writeFile(ownerPath, `${JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner)}\n`)
      return async () => {
        await rm(ownerPath, { force: true })
        await release()
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ELOCKED') throw new ConfigError(`cannot lock state file ${path}: ${code ?? String(error)}`)
      const owner = await readOwner(ownerPath)
      // A live holder is named at once; a dead one's lock is waited out until it is stale.
      if ((owner !== undefined && isAlive(owner)) || Date.now() > deadline) {
        const holder = owner === undefined ? 'another process' : `pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`
        throw new ConfigError(`state file ${path} is in use by ${holder}; stop it first, or start with another --state file`)
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
    }
  }
}

async function readOwner(ownerPath: string): Promise<Owner | undefined> {
  try {
    const owner = JSON.parse(await readFile(ownerPath, 'utf8')) as Partial<Owner>
    return Number.isSafeInteger(owner.pid) && typeof owner.host === 'string' ? (owner as Owner) : undefined
  } catch {
    return undefined
  }
}

/** Whether the owner is a live process other than this one (a restarted container may reuse its pid). */
function isAlive({ pid, host }: Owner): boolean {
  if (host !== hostname() || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
