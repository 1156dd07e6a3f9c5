import { Collection, Query } from '@msw/data'
import { PET_STATUSES, type NewPet, type Pet, type PetStatus } from './pet.js'
import { createPetSchema } from './create-pet-schema.js'
import { createMswDataWorkaround } from './msw-data-workaround.js'
import { storedPet } from './stored-pet.js'
import type { PetChange } from './pet-change.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'

// The queries of listPets, built once: they hold no state, and building them per request showed
// in the list request's profile (BENCHMARKS.md, "What the profiles changed").
const ANY_PET = new Query<Pet>(() => true)
const BY_STATUS = Object.fromEntries(PET_STATUSES.map((status) => [status, new Query<Pet>((pet) => pet.status === status)])) as Record<PetStatus, Query<Pet>>

// Pets seeded between two yields to the event loop, so that a large seed does not keep the
// process from answering its probes (docs/running-for-a-team.md#probes).
const PETS_PER_YIELD = 5_000
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

export interface PetStoreOptions {
  /** The pets a reset restores, in id order: a pet without an id takes the one after the pet before it (from 1). */
  seed: () => Iterable<NewPet & { id?: number }>
  /** Durable storage of created pets (`--state`); without it the store lives in memory only. */
  storage?: PetStorage
  /** The most pets stored at once; a create beyond it is refused with 507 `storage_full`. */
  maxPets?: number
}

/**
 * Where created pets outlive the process. The store awaits `commit` before it stores a pet or
 * resets, so nothing is acknowledged (201) or shown before it is durable.
 */
export interface PetStorage {
  /** Pets created in earlier runs, ascending by id, stored after the seeded ones on start. */
  restored: readonly Pet[]
  /** Seeded pets replaced by `pets.put` in earlier runs: they take the seeded ones' places on start. */
  replaced?: readonly Pet[]
  /** The id the next created pet gets: ids keep ascending across restarts. */
  nextId: number
  commit(change: PetChange): Promise<void>
  /** Why the storage cannot serve right now, or undefined: `GET /readyz` answers 503 meanwhile. */
  notReady?: () => string | undefined
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
export function createPetStore({ seed, storage, maxPets = Number.POSITIVE_INFINITY }: PetStoreOptions) {
  const symbols = createMswDataWorkaround()
  const schema = createPetSchema((pet) => symbols.prepared(storedPet(pet)))
  let collection = new Collection({ schema })
  let byId = new Map<number, Pet>()
  let nextId = 1
  let ready: Promise<void> = Promise.resolve()
  // Creates counted against maxPets while their journal line is written, so a burst cannot overshoot it.
  let creating = 0

  async function insert(pet: Pet): Promise<Pet> {
    const record = await collection.create(symbols.keyed(pet))
    symbols.settle(record)
    byId.set(record.id, record)
    return record
  }

  async function fill(restore?: PetStorage): Promise<void> {
    // A fresh collection rather than `clear()`: clearing deletes record by record, which is
    // quadratic for a large store, and requests awaiting `ready` never see a half-filled one.
    const next = new Collection({ schema })
    const nextIndex = new Map<number, Pet>()
    // In batches, in id order, drawn from the seed as the batches need them, so each batch's
    // drafts die young; the batch sizes are part of the @msw/data workaround.
    let seeded = 0
    const replaced = new Map((restore?.replaced ?? []).map((pet) => [pet.id, pet]))
    const pets = function* (): Generator<Pet> {
      for (const pet of seed()) {
        seeded = pet.id ?? seeded + 1
        yield replaced.get(seeded) ?? { ...pet, id: seeded }
      }
      yield* restore?.restored ?? []
    }
    let batch: Pet[] = []
    let sinceYield = 0
    const store = async () => {
      const stored = batch
      batch = []
      const records = await next.createMany(stored.length, (index) => symbols.keyed(stored[index]!))
      for (const record of records) {
        symbols.settle(record)
        nextIndex.set(record.id, record)
      }
      sinceYield += records.length
      if (sinceYield >= PETS_PER_YIELD) {
        sinceYield = 0
        await yieldToEventLoop()
      }
    }
    for (const pet of pets()) {
      batch.push(pet)
      if (batch.length >= symbols.seedBatchSize(nextIndex.size)) await store()
    }
    if (batch.length > 0) await store()
    collection = next
    byId = nextIndex
    nextId = Math.max(seeded + 1, restore?.nextId ?? 0)
  }

  return {
    /** Resolves once seeding (or the last reset) has finished. */
    ready: () => ready,

    /** Fills the store for the first time: the seeded pets, then those restored from storage. */
    start(): Promise<void> {
      ready = ready.then(() => fill(storage))
      return ready
    },

    /** Restores the seeded pets (durably forgetting created ones); ids restart after them. */
    reset(): Promise<void> {
      const done = ready.then(async () => {
        await storage?.commit({ kind: 'reset' })
        await fill()
      })
      // A reset that could not be made durable is reported to its caller and changes nothing;
      // the store stays usable.
      ready = done.catch(() => undefined)
      return done
    },

    list({ status, limit }: ListQuery): Pet[] {
      return collection.findMany(status === undefined ? ANY_PET : BY_STATUS[status], { take: limit })
    },

    get: (id: number): Pet | undefined => byId.get(id),

    async create(pet: NewPet): Promise<Pet> {
      if (byId.size + creating >= maxPets) throw storageFull(maxPets)
      const id = nextId++
      const record = storedPet({ ...pet, id })
      creating++
      try {
        // Durable first, visible second: a pet nobody was told about may be lost in a crash, but
        // never one that was acknowledged or listed.
        if (storage !== undefined) await storage.commit({ kind: 'created', pet: record })
        return await insert(record)
      } finally {
        creating--
      }
    },

    /**
     * Stores `pet` under its own id: replaces the pet with that id, or adds it when the id is
     * beyond every assigned one (ids skipped on the way are never assigned afterwards, so records
     * stay in id order and ids are still never reused).
     */
    async put(pet: Pet): Promise<Pet> {
      const record = storedPet(pet)
      if (storage !== undefined) await storage.commit({ kind: 'put', pet: record })
      const existing = byId.get(pet.id)
      if (existing === undefined) {
        nextId = Math.max(nextId, pet.id + 1)
        return insert(record)
      }
      const updated = await collection.update((q) => q.where({ id: existing.id }), {
        data(draft) {
          draft.name = record.name
          draft.categoryId = record.categoryId
          if (record.status === undefined) delete draft.status
          else draft.status = record.status
        },
        strict: true,
      })
      byId.set(updated.id, updated)
      return updated
    },

    /** Every stored pet, in id order. */
    all: (): Pet[] => collection.findMany(),

    count: (): number => byId.size,

    /** The id the next created pet gets. */
    nextId: (): number => nextId,
  }
}

export type PetStore = ReturnType<typeof createPetStore>

/** The refusal of a create beyond `maxPets` (docs/decisions.md#d23), worded alike by every store. */
export function storageFull(maxPets: number): HttpError {
  return new HttpError(507, ErrorCode.storageFull, `The sandbox stores at most ${maxPets} pets and is full; nothing was stored`)
}
