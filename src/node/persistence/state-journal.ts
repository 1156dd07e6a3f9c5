import type { PetChange } from '../../core/store/pet-change.js'
import { PET_STATUSES, type Pet } from '../../core/store/pet.js'

/** What a journal's lines built: the pets since the last reset, by id. */
export interface Replayed {
  readonly seeded: number
  created: Map<number, Pet>
  replaced: Map<number, Pet>
  nextId: number
}

/** Writes, reads and replays each `PetChange` kind as a journal line. */
export type JournalCodec<Change extends { kind: string }> = {
  readonly [Kind in Change['kind']]: JournalEntry<Extract<Change, { kind: Kind }>>
}

interface JournalEntry<Change> {
  write(change: Change): unknown
  read(value: unknown): Change | string
  /** Applies the change, or says why it cannot follow the lines before. */
  replay(replayed: Replayed, change: Change): string | undefined
}

/** The `--state` journal's lines: `{"created": Pet}`, `{"put": Pet}`, `{"reset": true}`. */
export const STATE_JOURNAL: JournalCodec<PetChange> = {
  created: {
    write: ({ pet }) => pet,
    read: (value) => (isPet(value) ? { kind: 'created', pet: value } : 'not a created pet'),
    replay(replayed, { pet }) {
      if (pet.id < replayed.nextId) return `pet id ${pet.id} does not ascend`
      replayed.created.set(pet.id, pet)
      replayed.nextId = pet.id + 1
      return undefined
    },
  },
  put: {
    write: ({ pet }) => pet,
    read: (value) => (isPet(value) ? { kind: 'put', pet: value } : 'not a put pet'),
    replay(replayed, { pet }) {
      ;(pet.id <= replayed.seeded ? replayed.replaced : replayed.created).set(pet.id, pet)
      replayed.nextId = Math.max(replayed.nextId, pet.id + 1)
      return undefined
    },
  },
  reset: {
    write: () => true,
    read: (value) => (value === true ? { kind: 'reset' } : 'a reset holds true'),
    replay(replayed) {
      replayed.created.clear()
      replayed.replaced.clear()
      replayed.nextId = replayed.seeded + 1
      return undefined
    },
  },
}

const KINDS = Object.keys(STATE_JOURNAL)

/** Returns the entry of a change's kind (the compiler cannot pair them). */
function entryOf(kind: string): JournalEntry<PetChange> | undefined {
  return Object.hasOwn(STATE_JOURNAL, kind)
    ? (STATE_JOURNAL[kind as PetChange['kind']] as JournalEntry<PetChange>)
    : undefined
}

export function journalLine(change: PetChange): string {
  return `${JSON.stringify({ [change.kind]: entryOf(change.kind)!.write(change) })}\n`
}

/** Replays one parsed line; returns why it cannot be (the file is corrupt there), or undefined. */
export function replayJournalLine(replayed: Replayed, line: Record<string, unknown>): string | undefined {
  const names = Object.keys(line)
  const entry = names.length === 1 ? entryOf(names[0]!) : undefined
  if (entry === undefined) return `not a change the journal knows (one of ${KINDS.join(', ')})`
  const change = entry.read(line[names[0]!])
  if (typeof change === 'string') return change
  return entry.replay(replayed, change)
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
