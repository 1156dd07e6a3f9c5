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
  /** `list`'s page as its JSON text, for a store that keeps each record's text (the in-memory one); `list` serves otherwise. */
  listJson?(query: ListQuery): string
  /**
   * The page `query` asks for, to be read with the next rate-limit decision of this world, in its
   * round trip (a shared state's shortcut, BENCHMARKS.md, the Redis section); undefined otherwise.
   */
  readAhead?(query: ListQuery): ListingAhead
  get(id: number): Answer<Pet | undefined, Of>
  create(pet: NewPet): Promise<Pet>
  put(pet: Pet): Promise<Pet>
  all(): Answer<Pet[], Of>
  count(): Answer<number, Of>
  nextId(): Answer<number, Of>
}
