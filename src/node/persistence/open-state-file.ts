import { open, readFile, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ConfigError } from '../../core/errors/config-error.js'
import type { PetStorage } from '../../core/store/create-pet-store.js'
import type { Pet } from '../../core/store/pet.js'
import { readStateFile, type StateHeader } from './read-state-file.js'

export interface StateFile extends PetStorage {
  /** Waits for pending writes, then closes the file. */
  close(): Promise<void>
}

interface Pending {
  line: string
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Opens (or creates) the `--state` file: an append-only journal of created pets. Node only: the
 * CLI uses it, the library (which also runs in browsers) never imports it.
 *
 * Durability: `commit` resolves only once its line is on disk (`fdatasync`), and the store awaits
 * it before answering 201. Commits that arrive while a sync is running are written and synced
 * together by the next one (group commit), so a burst of creates costs a few syncs, not one each,
 * and a write never grows with the number of pets already stored.
 *
 * Atomicity: on start, the journal is compacted into a temporary file, synced, renamed over the
 * old one and the directory synced: a crash leaves the old file or the new one, never a mix. After
 * that only whole lines are appended; a crash mid-append leaves at most an incomplete last line,
 * whose change was never acknowledged and is dropped on the next start. A file that is corrupt in
 * any other way stops start-up with a ConfigError and is not touched.
 */
export async function openStateFile(path: string, seeded: { seed: number; pets: number }): Promise<StateFile> {
  let text: string | undefined
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') throw new ConfigError(`cannot read state file ${path}: ${code ?? String(error)}`)
  }
  let restored: Pet[] = []
  let nextId = seeded.pets + 1
  if (text !== undefined) {
    const contents = readStateFile(text, path, seeded.pets)
    if (contents.header.seed !== seeded.seed || contents.header.pets !== seeded.pets) {
      throw new ConfigError(
        `state file ${path} extends --seed ${contents.header.seed} --pets ${contents.header.pets}; start with those, or use another --state file`,
      )
    }
    restored = contents.created
    nextId = contents.nextId
  }

  const header: StateHeader = { petstoreSandboxState: 1, seed: seeded.seed, pets: seeded.pets }
  const compacted = [header, ...restored.map((pet) => ({ created: pet }))].map((line) => `${JSON.stringify(line)}\n`).join('')
  try {
    await replaceAtomically(path, compacted)
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
    nextId,
    commit(change) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ line: `${JSON.stringify(change)}\n`, resolve, reject })
        flushing ??= flush()
      })
    },
    async close() {
      await flushing
      await handle.close()
    },
  }
}

/** temp file + fsync + rename + fsync of the directory: the file is either old or new. */
async function replaceAtomically(path: string, contents: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  const file = await open(temporary, 'w')
  try {
    await file.writeFile(contents)
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(temporary, path)
  const directory = await open(dirname(path), 'r')
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}
