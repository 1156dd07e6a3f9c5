import type { ListQuery } from '../store/create-pet-store.js'
import type { NewPet, Pet } from '../store/pet.js'
import type { MaybePromise } from './maybe-promise.js'

/** Where the pets live: the in-memory store, or a shared one. Reads answer at once or later. */
export interface PetRepository {
  /** Resolves once the seeded pets are there; rejects (ConfigError) when they cannot be. */
  ready(): Promise<void>
  /** Seeds, or finds the pets another process seeded. */
  start(): Promise<void>
  /** Restores the seeded pets; ids restart after them. */
  reset(): Promise<void>
  list(query: ListQuery): MaybePromise<Pet[]>
  get(id: number): MaybePromise<Pet | undefined>
  create(pet: NewPet): Promise<Pet>
  put(pet: Pet): Promise<Pet>
  all(): MaybePromise<Pet[]>
  count(): MaybePromise<number>
  nextId(): MaybePromise<number>
}
