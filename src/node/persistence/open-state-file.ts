import { chown, open, readFile, rename, stat, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ConfigError } from '../../core/errors/config-error.js'
import type { PetStorage } from '../../core/store/create-pet-store.js'
import type { Pet } from '../../core/store/pet.js'
import { lockStateFile } from './lock-state-file.js'
import { readStateFile, type StateHeader } from './read-state-file.js'

export interface StateFile extends PetStorage {
  /** Whether start-up dropped an incomplete last line (a write cut short by a crash, never acknowledged). */
  droppedTornLine: boolean
  /** Waits for pending writes, closes the file and releases the lock. */
  close(): Promise<void>
}

export interface StateFileOptions {
  seed: number
  pets: number
  /** Called if another process takes the lock away; the caller must stop (lock-state-file.ts). Default: throw. */
  onLockLost?: (error: Error) => void
}

interface Pending {
  line: string
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Opens (or creates) the `--state` file: an append-only journal of created and put pets. Node
 * only: the CLI uses it, the library (which also runs in browsers) never imports it.
 *
 * One writer: the file is locked first (lock-state-file.ts), so a second process never reads,
 * compacts or appends to a file a live process holds.
 *
 * Durability: `commit` resolves only once its line is on disk (`fdatasync`), and the store awaits
 * it before answering 201. Commits that arrive while a sync is running are written and synced
 * together by the next one (group commit), so a burst of creates costs a few syncs, not one each,
 * and a write never grows with the number of pets already stored.
 *
 * Atomicity: on start, the journal is compacted into a temporary file with the old file's mode
 * and owner, synced, renamed over the old one and the directory synced: a crash leaves the old
 * file or the new one, never a mix. After that only whole lines are appended; a crash mid-append
 * leaves at most an incomplete last line, whose change was never acknowledged: it is dropped on
 * the next start, which says so. A file that is corrupt in any other way, or read-only, stops
 * start-up with a ConfigError and is not touched.
 */
export async function openStateFile(path: string, { seed, pets, onLockLost = rethrow }: StateFileOptions): Promise<StateFile> {
  const release = await lockStateFile(path, onLockLost)
  try {
    return await openLocked(path, seed, pets, release)
  } catch (error) {
    await release()
    throw error
  }
}

function rethrow(error: Error): never {
  throw error
}

async function openLocked(path: string, seed: number, pets: number, release: () => Promise<void>): Promise<StateFile> {
  let text: string | undefined
  let existing: { mode: number; uid: number; gid: number } | undefined
  try {
    existing = await stat(path)
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') throw new ConfigError(`cannot read state file ${path}: ${code ?? String(error)}`)
  }
  // Checked on the mode bits, not access(): root may write any file, and would replace this one.
  if (existing !== undefined && (existing.mode & 0o222) === 0) {
    throw new ConfigError(`state file ${path} is read-only (mode ${(existing.mode & 0o777).toString(8)}); make it writable, or start with another --state file`)
  }
  let restored: Pet[] = []
  let replaced: Pet[] = []
  let nextId = pets + 1
  let droppedTornLine = false
  if (text !== undefined) {
    const contents = readStateFile(text, path, pets)
    if (contents.header.seed !== seed || contents.header.pets !== pets) {
      throw new ConfigError(
        `state file ${path} extends --seed ${contents.header.seed} --pets ${contents.header.pets}; start with those, or use another --state file`,
      )
    }
    restored = contents.created
    replaced = contents.replaced
    nextId = contents.nextId
    droppedTornLine = contents.tornTail
  }

  const header: StateHeader = { petstoreSandboxState: 1, seed, pets }
  const lines = [header, ...replaced.map((pet) => ({ put: pet })), ...restored.map((pet) => ({ created: pet }))]
  try {
    await replaceAtomically(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''), existing)
  } catch (error) {
    throw new ConfigError(`cannot write state file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  const handle = await open(path, 'a')

  let pending: Pending[] = []
  let flushing: Promise<void> | undefined

  async function flush(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending
      pending = []
      try {
        await handle.appendFile(batch.map((entry) => entry.line).join(''))
        await handle.datasync()
        for (const entry of batch) entry.resolve()
      } catch (error) {
        for (const entry of batch) entry.reject(error)
      }
    }
    flushing = undefined
  }

  return {
    restored,
    replaced,
    nextId,
    droppedTornLine,
    commit(change) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ line: `${JSON.stringify(change)}\n`, resolve, reject })
        flushing ??= flush()
      })
    },
    async close() {
      await flushing
      await handle.close()
      await release()
    },
  }
}

/**
 * temp file + fsync + rename + fsync of the directory: the file is either old or new. The new
 * file keeps the old one's mode and, where this process may, its owner; a failed write leaves no
 * temporary file behind.
 */
async function replaceAtomically(path: string, contents: string, existing: { mode: number; uid: number; gid: number } | undefined): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    const file = await open(temporary, 'w', existing === undefined ? 0o644 : existing.mode & 0o7777)
    try {
      if (existing !== undefined) await file.chmod(existing.mode & 0o7777)
      await file.writeFile(contents)
      await file.sync()
    } finally {
      await file.close()
    }
    if (existing !== undefined) await chown(temporary, existing.uid, existing.gid).catch(() => undefined)
    await rename(temporary, path)
  } catch (error) {
    await unlink(temporary).catch(() => undefined)
    throw error
  }
  const directory = await open(dirname(path), 'r')
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}
