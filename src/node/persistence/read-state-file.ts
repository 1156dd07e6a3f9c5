import { ConfigError } from '../../core/errors/config-error.js'
import { PET_STATUSES, type Pet } from '../../core/store/pet.js'
import { GIVEN_PETS_DIGEST } from './seeded-pets-identity.js'

/**
 * The first line of a state file: what it is and which seeded store it extends (`given` only for
 * given pets, so a file of generated pets reads as before it existed).
 */
export interface StateHeader {
  petstoreSandboxState: 1
  seed: number
  pets: number
  given?: string
}

export interface StateContents {
  header: StateHeader
  /** Created (or put beyond the seeded ids) pets since the last reset, ascending by id. */
  created: Pet[]
  /** Seeded pets replaced by `pets.put` since the last reset, ascending by id. */
  replaced: Pet[]
  nextId: number
  /** Whether the last line was cut short by a crash mid-append (never acknowledged). */
  tornTail: boolean
}

/**
 * Parses a state file: a header line, then one JSON line per change (`{"created": Pet}`,
 * `{"put": Pet}` or `{"reset": true}`). A last line without its newline is a crash in the middle of an append: that
 * change was never acknowledged, so it is dropped. Anything else that does not parse is
 * corruption, reported with the line number, and the caller leaves the file alone.
 */
export function readStateFile(text: string, path: string, seeded: number): StateContents {
  const corrupt = (line: number, reason: string) =>
    new ConfigError(`state file ${path} is corrupt at line ${line}: ${reason}; it was left untouched (repair it, or start with another --state file)`)
  const lines = text.split('\n')
  const tail = lines.pop()!
  const tornTail = tail !== ''
  if (lines.length === 0) throw corrupt(1, tornTail ? 'the header line is incomplete' : 'the file is empty')

  const header = parseLine(lines[0]!, () => corrupt(1, 'not JSON'))
  const givenOk = header.given === undefined || (typeof header.given === 'string' && GIVEN_PETS_DIGEST.test(header.given))
  if (header.petstoreSandboxState !== 1 || !isCount(header.seed) || !isCount(header.pets) || !givenOk) {
    throw corrupt(1, 'not a petstore-sandbox state header')
  }
  const created = new Map<number, Pet>()
  const replaced = new Map<number, Pet>()
  let nextId = seeded + 1
  for (let index = 1; index < lines.length; index++) {
    const record = parseLine(lines[index]!, () => corrupt(index + 1, 'not JSON'))
    if (record.reset === true && Object.keys(record).length === 1) {
      created.clear()
      replaced.clear()
      nextId = seeded + 1
      continue
    }
    if (isPet(record.put)) {
      const pet = record.put
      ;(pet.id <= seeded ? replaced : created).set(pet.id, pet)
      nextId = Math.max(nextId, pet.id + 1)
      continue
    }
    const pet = record.created
    if (!isPet(pet)) throw corrupt(index + 1, 'neither a created pet, a put pet nor a reset')
    if (pet.id < nextId) throw corrupt(index + 1, `pet id ${pet.id} does not ascend`)
    created.set(pet.id, pet)
    nextId = pet.id + 1
  }
  const ascending = (pets: Map<number, Pet>) => [...pets.values()].sort((a, b) => a.id - b.id)
  return { header: header as unknown as StateHeader, created: ascending(created), replaced: ascending(replaced), nextId, tornTail }
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

function isPet(value: unknown): value is Pet {
  if (typeof value !== 'object' || value === null) return false
  const pet = value as Record<string, unknown>
  return (
    isCount(pet.id) &&
    pet.id >= 1 &&
    typeof pet.name === 'string' &&
    pet.name.length >= 1 &&
    pet.name.length <= 200 &&
    isCount(pet.categoryId) &&
    pet.categoryId >= 1 &&
    (pet.status === undefined || PET_STATUSES.includes(pet.status as never))
  )
}
