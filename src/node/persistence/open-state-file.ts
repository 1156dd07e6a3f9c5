import { open, readFile, stat } from 'node:fs/promises'
import { ConfigError } from '../../core/errors/config-error.js'
import type { PetStorage } from '../../core/store/create-pet-store.js'
import type { Pet } from '../../core/store/pet.js'
import { createDiskHealth, unwritable } from './create-disk-health.js'
import { lockStateFile } from './lock-state-file.js'
import { replaceAtomically } from './replace-atomically.js'
import { readStateFile, type StateHeader } from './read-state-file.js'
import { seededPetsMismatch, type SeededPetsIdentity } from './seeded-pets-identity.js'
import { journalLine } from './state-journal.js'

export interface StateFile extends PetStorage {
  /** Tells whether start-up dropped a torn last line. */
  droppedTornLine: boolean
  close(): Promise<void>
}

export interface StateFileOptions extends SeededPetsIdentity {
  /** Hears that another process took the lock; the caller must stop. */
  onLockLost?: (error: Error) => void
}

interface Pending {
  line: string
  resolve: () => void
  reject: (error: unknown) => void
}

/** Opens the `--state` journal (D26; docs/running-for-a-team.md, "Persistence"). */
export async function openStateFile(
  path: string,
  { onLockLost = rethrow, ...seeded }: StateFileOptions,
): Promise<StateFile> {
  const release = await lockStateFile(path, onLockLost)
  try {
    return await openLocked(path, seeded, release)
  } catch (error) {
    await release()
    throw error
  }
}

function rethrow(error: Error): never {
  throw error
}

async function openLocked(path: string, seeded: SeededPetsIdentity, release: () => Promise<void>): Promise<StateFile> {
  const { seed, pets, given } = seeded
  let text: string | undefined
  let existing: { mode: number; uid: number; gid: number } | undefined
  try {
    existing = await stat(path)
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') throw new ConfigError(`cannot read state file ${path}: ${code ?? String(error)}`)
  }
  // Mode bits, not access(): root may write any file.
  if (existing !== undefined && (existing.mode & 0o222) === 0) {
    throw new ConfigError(
      `state file ${path} is read-only (mode ${(existing.mode & 0o777).toString(8)}); make it writable,` +
        ' or start with another --state file',
    )
  }
  let restored: Pet[] = []
  let replaced: Pet[] = []
  let nextId = pets + 1
  let droppedTornLine = false
  if (text !== undefined) {
    const contents = readStateFile(text, path, pets)
    const mismatch = seededPetsMismatch(contents.header, seeded)
    if (mismatch !== undefined)
      throw new ConfigError(`state file ${path} extends ${mismatch}, or use another --state file`)
    restored = contents.created
    replaced = contents.replaced
    nextId = contents.nextId
    droppedTornLine = contents.tornTail
  }

  const header: StateHeader = { petstoreSandboxState: 1, seed, pets, ...(given === undefined ? {} : { given }) }
  const contents = [
    `${JSON.stringify(header)}\n`,
    ...replaced.map((pet) => journalLine({ kind: 'put', pet })),
    ...restored.map((pet) => journalLine({ kind: 'created', pet })),
  ].join('')
  try {
    await replaceAtomically(path, contents, existing)
  } catch (error) {
    throw new ConfigError(`cannot write state file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  const handle = await open(path, 'a')
  // A failed append is cut back to this length.
  let length = Buffer.byteLength(contents)
  const disk = createDiskHealth(path)
  let failure: string | undefined
  // A partial line: nothing more is written.
  let torn = false

  let pending: Pending[] = []
  let flushing: Promise<void> | undefined

  async function flush(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending
      pending = []
      const text = batch.map((entry) => entry.line).join('')
      if (torn) {
        for (const entry of batch) entry.reject(unwritable('--state file', failure ?? 'EIO', true))
        continue
      }
      try {
        await handle.appendFile(text)
        await handle.datasync()
        length += Buffer.byteLength(text)
        disk.succeeded()
        for (const entry of batch) entry.resolve()
      } catch (error) {
        failure = disk.failed(error)
        await handle.truncate(length).catch(() => (torn = true))
        const refusal = unwritable('--state file', failure, torn)
        for (const entry of batch) entry.reject(refusal)
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
        pending.push({ line: journalLine(change), resolve, reject })
        flushing ??= flush()
      })
    },
    notReady() {
      if (torn)
        return (
          `the --state file could not be written (${failure}) nor cut back to its last whole line;` +
          ' restart the sandbox'
        )
      const trouble = disk.notReady()
      return trouble === undefined ? undefined : `the --state file cannot be written (${trouble})`
    },
    async close() {
      await flushing
      await disk.settled()
      await handle.close()
      await release()
    },
  }
}
