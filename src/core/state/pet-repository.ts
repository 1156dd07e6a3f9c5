import type { NewPet, Pet, PetStatus } from '../store/pet.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { ReadAhead } from './read-ahead.js'

/** Asks for the first `limit` pets in id order, of one status or all. */
export interface ListQuery {
  status?: PetStatus | undefined
  limit: number
}

/** Holds a page read with a rate-limit decision; `page()` is its JSON once allowed. */
export interface ListingAhead extends ReadAhead {
  page(): string | undefined
}

/** Keeps the pets in memory (`'now'`) or shared (`'later'`). */
export interface PetRepository<Of extends Timing = Timing> {
  /** Rejects with a ConfigError when the seeded pets cannot be there. */
  ready(): Promise<void>
  /** Seeds, or finds the pets another process seeded. */
  start(): Promise<void>
  reset(): Promise<void>
  list(query: ListQuery): Answer<Pet[], Of>
  /** Returns `list`'s page as JSON, where the store keeps each record's text. */
  listJson?(query: ListQuery): string
  /** Reads the page in the next rate-limit decision's round trip (BENCHMARKS.md, Redis). */
  readAhead?(query: ListQuery): ListingAhead
  get(id: number): Answer<Pet | undefined, Of>
  create(pet: NewPet): Promise<Pet>
  put(pet: Pet): Promise<Pet>
  all(): Answer<Pet[], Of>
  count(): Answer<number, Of>
  nextId(): Answer<number, Of>
}
