import { readFileSync } from 'node:fs'
import { readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import lockfile from 'proper-lockfile'
import { ConfigError } from '../../core/errors/config-error.js'

// docs/running-for-a-team.md#one-writer-per-state-file
const STALE_MS = 3_000
const UPDATE_MS = 1_000
const RETRY_MS = 250

/** Written beside the lock, so a second process can name the holder. */
interface Owner {
  pid: number
  host: string
}

/** Makes this process the state file's only writer, or throws a ConfigError naming the writer. */
export async function lockStateFile(path: string, onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
  const ownerPath = `${path}.lock-owner`
  const deadline = Date.now() + STALE_MS + 4 * RETRY_MS
  for (;;) {
    try {
      const release = await lockfile.lock(path, {
        realpath: false,
        stale: STALE_MS,
        update: UPDATE_MS,
        retries: 0,
        onCompromised,
      })
      await writeFile(ownerPath, `${JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner)}\n`)
      return async () => {
        await rm(ownerPath, { force: true })
        await release()
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ELOCKED') throw new ConfigError(`cannot lock state file ${path}: ${code ?? String(error)}`)
      const owner = await readOwner(ownerPath)
      // A dead or silent holder's lock is about to go stale: waited out.
      if ((owner !== undefined && isAlive(owner) && (await isRefreshed(path))) || Date.now() > deadline) {
        const holder =
          owner === undefined
            ? 'another process'
            : `pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`
        throw new ConfigError(
          `state file ${path} is in use by ${holder}; stop it first, or start with another --state file`,
        )
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

/** Whether the owner is another live process; a zombie answers `kill(pid, 0)` too, so /proc is asked. */
function isAlive({ pid, host }: Owner): boolean {
  if (host !== hostname() || pid === process.pid) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !isZombie(pid)
}

/** Tells whether /proc says `pid` is a zombie. */
function isZombie(pid: number): boolean {
  try {
    const line = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return line.slice(line.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return false
  }
}

/** Whether the lock was refreshed within UPDATE_MS. */
async function isRefreshed(path: string): Promise<boolean> {
  try {
    return Date.now() - (await stat(`${path}.lock`)).mtimeMs < 2 * UPDATE_MS
  } catch {
    return false
  }
}
