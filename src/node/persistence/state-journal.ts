import type { PetChange } from '../../core/store/pet-change.js'
import { PET_STATUSES, type Pet } from '../../core/store/pet.js'

/** What a journal's lines have built so far: the pets since the last reset, by id. */
export interface Replayed {
  /** The start-up pets' count: ids up to it are theirs. */
  readonly seeded: number
  /** Pets beyond the start-up ones (created, or put beyond every assigned id). */
  created: Map<number, Pet>
  /** Start-up pets replaced by `pets.put`. */
  replaced: Map<number, Pet>
  nextId: number
}

/** How each kind of change is written, read and replayed as a journal line, one per `PetChange` kind. */
export type JournalCodec<Change extends { kind: string }> = {
  readonly [Kind in Change['kind']]: JournalEntry<Extract<Change, { kind: Kind }>>
}

interface JournalEntry<Change> {
  /** The value the line holds under its kind's name. */
  write(change: Change): unknown
  /** The change a line's value stands for, or why it stands for none. */
  read(value: unknown): Change | string
  /** Applies the change to what the lines before it built, or says why it cannot follow them. */
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

/** The entry of a change's own kind (the compiler cannot pair a union's member with its entry). */
function entryOf(kind: string): JournalEntry<PetChange> | undefined {
  return Object.hasOwn(STATE_JOURNAL, kind)
    ? (STATE_JOURNAL[kind as PetChange['kind']] as JournalEntry<PetChange>)
    : undefined
}

/** The journal line of a change, newline included. */
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
