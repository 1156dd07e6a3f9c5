import { expect, it } from 'vitest'
import type { PetChange } from '../../src/core/store/pet-change.js'
import {
  journalLine,
  replayJournalLine,
  STATE_JOURNAL,
  type JournalCodec,
  type Replayed,
} from '../../src/node/persistence/state-journal.js'

// Checked by `npm run typecheck`: the journal's table names every kind of PetChange, and a kind it
// does not handle fails the typecheck (as adding `{ kind: 'deleted' }` to PetChange would, at
// STATE_JOURNAL, until it is written, read and replayed).
type Deleted = { kind: 'deleted'; id: number }
const everyKindHandled: JournalCodec<PetChange> = STATE_JOURNAL
// @ts-expect-error: Property 'deleted' is missing in the journal's table.
const unhandledKindFails: JournalCodec<PetChange | Deleted> = STATE_JOURNAL
void everyKindHandled
void unhandledKindFails

const pet = (id: number) => ({ id, name: `Pet ${id}`, categoryId: 1 })
const fresh = (): Replayed => ({ seeded: 2, created: new Map(), replaced: new Map(), nextId: 3 })

it('writes every kind of change as the line earlier releases wrote, and reads it back as the same change', () => {
  const lines: { [Kind in PetChange['kind']]: [Extract<PetChange, { kind: Kind }>, string] } = {
    created: [{ kind: 'created', pet: pet(3) }, '{"created":{"id":3,"name":"Pet 3","categoryId":1}}\n'],
    put: [
      { kind: 'put', pet: { ...pet(1), status: 'sold' } },
      '{"put":{"id":1,"name":"Pet 1","categoryId":1,"status":"sold"}}\n',
    ],
    reset: [{ kind: 'reset' }, '{"reset":true}\n'],
  }
  for (const [change, line] of Object.values(lines)) {
    expect(journalLine(change)).toBe(line)
    const entry = STATE_JOURNAL[change.kind]
    expect(entry.read(JSON.parse(line)[change.kind])).toEqual(change)
  }
})

it('refuses a line of a kind it does not know, or of two kinds, naming the kinds it knows', () => {
  for (const line of [{ deleted: 3 }, { created: pet(3), put: pet(3) }, {}, { __proto__: null, constructor: pet(3) }]) {
    expect(replayJournalLine(fresh(), line)).toBe('not a change the journal knows (one of created, put, reset)')
  }
})
