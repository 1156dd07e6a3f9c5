import { Collection, Query } from '@msw/data'
import { PET_STATUSES, type NewPet, type Pet, type PetStatus } from './pet.js'
import { petSchema } from './pet-schema.js'

const SEED_BATCH = 1000

// The queries of listPets, built once (they hold no state) instead of two Query objects and
// their closures per request: the store was about 4 µs of a list request's CPU profile.
const ANY_PET = new Query<Pet>(() => true)
const BY_STATUS = Object.fromEntries(PET_STATUSES.map((status) => [status, new Query<Pet>((pet) => pet.status === status)])) as Record<PetStatus, Query<Pet>>

export interface PetStoreOptions {
  /** The pets a reset restores, in id order from 1. */
  seed: () => readonly NewPet[]
}

export interface ListQuery {
  status?: PetStatus | undefined
  limit: number
}

/**
 * The sandbox's pets: an `@msw/data` collection, plus an id index so `get` does not scan.
 * Ids are assigned here, synchronously, from a counter that only grows: ascending, never reused,
 * even across concurrent creates. Records sit in the collection in id order, so the first `limit`
 * matches of a scan are the answer of `listPets` (D8) without sorting.
 */
export function createPetStore({ seed }: PetStoreOptions) {
  let collection = new Collection({ schema: petSchema })
  let byId = new Map<number, Pet>()
  let nextId = 1
  let ready: Promise<void> = Promise.resolve()

  async function insert(pet: Pet): Promise<Pet> {
    const record = await collection.create(pet)
    byId.set(record.id, record)
    return record
  }

  async function fill(): Promise<void> {
    // A fresh collection rather than `clear()`: clearing deletes record by record, which is
    // quadratic for a large store, and requests awaiting `ready` never see a half-filled one.
    const next = new Collection({ schema: petSchema })
    const nextIndex = new Map<number, Pet>()
    const pets = seed()
    // In batches, in id order: one createMany of 100000 kept 100000 pending creates alive at
    // once, and the garbage collector took half of a 2 s start-up and 400 MB copying them.
    for (let start = 0; start < pets.length; start += SEED_BATCH) {
      const count = Math.min(SEED_BATCH, pets.length - start)
      const records = await next.createMany(count, (index) => ({ id: start + index + 1, ...pets[start + index]! }))
      for (const record of records) nextIndex.set(record.id, record)
    }
    collection = next
    byId = nextIndex
    nextId = pets.length + 1
  }

  return {
    /** Resolves once seeding (or the last reset) has finished. */
    ready: () => ready,

    /** Restores the seeded pets; ids restart at 1. */
    reset(): Promise<void> {
      ready = ready.then(fill)
      return ready
    },

    list({ status, limit }: ListQuery): Pet[] {
      return collection.findMany(status === undefined ? ANY_PET : BY_STATUS[status], { take: limit })
    },

    get: (id: number): Pet | undefined => byId.get(id),

    create(pet: NewPet): Promise<Pet> {
      const id = nextId++
      return insert({ id, name: pet.name, categoryId: pet.categoryId, ...(pet.status === undefined ? {} : { status: pet.status }) })
    },

    /** Every stored pet, in id order. */
    all: (): Pet[] => collection.findMany(),

    count: (): number => byId.size,
  }
}

export type PetStore = ReturnType<typeof createPetStore>
