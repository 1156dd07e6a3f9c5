import type { NewPet, Pet, PetStatus } from '../store/pet.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { ReadAhead } from './read-ahead.js'

/** Asks for the first `limit` pets in id order. */
export interface ListQuery {
  status?: PetStatus | undefined
  limit: number
}

export interface ListingAhead extends ReadAhead {
  page(): string | undefined
}

export interface PetRepository<Of extends Timing = Timing> {
  /** Rejects with a ConfigError when the seeded pets cannot be there. */
  ready(): Promise<void>
  /** Returns what a read waits for: `ready()` while the store changes, nothing once it is settled. */
  pending(): Promise<void> | undefined
  /** Seeds, or finds the pets another process seeded. */
  start(): Promise<void>
  reset(): Promise<void>
  list(query: ListQuery): Answer<Pet[], Of>
  /** Gives `list`'s page as JSON, where records are text. */
  listJson?(query: ListQuery): string
  readAhead?(query: ListQuery): ListingAhead
  get(id: number): Answer<Pet | undefined, Of>
  create(pet: NewPet): Promise<Pet>
  put(pet: Pet): Promise<Pet>
  all(): Answer<Pet[], Of>
  count(): Answer<number, Of>
  nextId(): Answer<number, Of>
}
