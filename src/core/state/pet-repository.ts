import type { NewPet, Pet, PetStatus } from '../store/pet.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { ReadAhead } from './read-ahead.js'

/** The page `listPets` reads: the first `limit` pets in id order, of one status or all. */
export interface ListQuery {
  status?: PetStatus | undefined
  limit: number
}

/** Holds a page read with a rate-limit decision: `page()`, its JSON text once the decision allowed. */
export interface ListingAhead extends ReadAhead {
  page(): string | undefined
}

/** Where the pets live: the in-memory store (`'now'`), or a shared one (`'later'`). */
export interface PetRepository<Of extends Timing = Timing> {
  /** Resolves once the seeded pets are there; rejects (ConfigError) when they cannot be. */
  ready(): Promise<void>
  /** Seeds, or finds the pets another process seeded. */
  start(): Promise<void>
  /** Restores the seeded pets; ids restart after them. */
  reset(): Promise<void>
  list(query: ListQuery): Answer<Pet[], Of>
  /** Returns `list`'s page as JSON text, where the store keeps each record's text. */
  listJson?(query: ListQuery): string
  /** Reads the page with the next rate-limit decision, in its round trip (BENCHMARKS.md, Redis); shared state only. */
  readAhead?(query: ListQuery): ListingAhead
  get(id: number): Answer<Pet | undefined, Of>
  create(pet: NewPet): Promise<Pet>
  put(pet: Pet): Promise<Pet>
  all(): Answer<Pet[], Of>
  count(): Answer<number, Of>
  nextId(): Answer<number, Of>
}
