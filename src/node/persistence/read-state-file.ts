import { ConfigError } from '../../core/errors/config-error.js'
import type { Pet } from '../../core/store/pet.js'
import { GIVEN_PETS_DIGEST } from './seeded-pets-identity.js'
import { replayJournalLine, type Replayed } from './state-journal.js'

/** The first line of a state file (D33). */
export interface StateHeader {
  petstoreSandboxState: 1
  seed: number
  pets: number
  given?: string
}

export interface StateContents {
  header: StateHeader
  /** Ascending by id, since the last reset. */
  created: Pet[]
  replaced: Pet[]
  nextId: number
  /** Whether a crash cut the last line short (never acknowledged). */
  tornTail: boolean
}

/** Parses a state file, dropping a torn last line and naming a corrupt one by number. */
export function readStateFile(text: string, path: string, seeded: number): StateContents {
  const corrupt = (line: number, reason: string) =>
    new ConfigError(
      `state file ${path} is corrupt at line ${line}: ${reason}; it was left untouched (repair it,` +
        ' or start with another --state file)',
    )
  const lines = text.split('\n')
  const tail = lines.pop()!
  const tornTail = tail !== ''
  if (lines.length === 0) throw corrupt(1, tornTail ? 'the header line is incomplete' : 'the file is empty')

  const header = parseLine(lines[0]!, () => corrupt(1, 'not JSON'))
  const givenOk =
    header.given === undefined || (typeof header.given === 'string' && GIVEN_PETS_DIGEST.test(header.given))
  if (header.petstoreSandboxState !== 1 || !isCount(header.seed) || !isCount(header.pets) || !givenOk) {
    throw corrupt(1, 'not a petstore-sandbox state header')
  }
  const replayed: Replayed = { seeded, created: new Map(), replaced: new Map(), nextId: seeded + 1 }
  for (let index = 1; index < lines.length; index++) {
    const line = parseLine(lines[index]!, () => corrupt(index + 1, 'not JSON'))
    const failure = replayJournalLine(replayed, line)
    if (failure !== undefined) throw corrupt(index + 1, failure)
  }
  const ascending = (pets: Map<number, Pet>) => [...pets.values()].sort((a, b) => a.id - b.id)
  return {
    header: header as unknown as StateHeader,
    created: ascending(replayed.created),
    replaced: ascending(replayed.replaced),
    nextId: replayed.nextId,
    tornTail,
  }
}

function parseLine(line: string, fail: () => Error): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw fail()
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail()
  return value as Record<string, unknown>
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}
