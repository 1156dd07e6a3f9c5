import { Collection, Query } from '@msw/data'
import { PET_STATUSES, type NewPet, type Pet, type PetStatus } from './pet.js'
import { createPetSchema } from './create-pet-schema.js'
import { createMswDataWorkaround } from './msw-data-workaround.js'
import { storedPet } from './stored-pet.js'

// The queries of listPets, built once: they hold no state, and building them per request showed
// in the list request's profile (BENCHMARKS.md, "What the profiles changed").
const ANY_PET = new Query<Pet>(() => true)
const BY_STATUS = Object.fromEntries(
  PET_STATUSES.map((status) => [status, new Query<Pet>((pet) => pet.status === status)]),
) as Record<PetStatus, Query<Pet>>

// Pets stored between two yields to the event loop, so that a large seed does not keep the
// process from answering its probes (docs/running-for-a-team.md#probes).
const PETS_PER_YIELD = 5_000
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

// Page texts a base keeps (`pageText`): one for each status (and none) and each limit a listing
// may ask (1 to 100), so the cache never holds more than a base's listings can ask for.
const PAGES_KEPT = (PET_STATUSES.length + 1) * 100

/** A page of a base's pets as JSON text, and how many pets it holds. */
export interface PageText {
  text: string
  count: number
}

/**
 * The pets a world starts from, immutable once filled and shared by every session that starts
 * from them (copy-on-write: each world's own changes live in its overlay, create-pet-store.ts).
 * An `@msw/data` collection plus an id index, so `get` does not scan; records sit in id order, so
 * the first `limit` matches of a scan are a page of `listPets` (D8) without sorting.
 *
 * @example
 * const base = createPetBase()
 * await base.fill(seedPets(1, 50))
 * base.list(undefined, 20).length // 20
 */
export function createPetBase() {
  const symbols = createMswDataWorkaround()
  const schema = createPetSchema((pet) => symbols.prepared(storedPet(pet)))
  let collection = new Collection({ schema })
  let byId = new Map<number, Pet>()
  let lastId = 0
  // Sessions using this base: its pets count against maxPets while any does (create-pet-store.ts).
  let users = 0
  // Each listed record's JSON text, for every session over this base. Weak: a record gone from
  // every store takes its text with it.
  const texts = new WeakMap<Pet, string>()
  // The JSON text of the first pages, by status and limit: a base never changes once filled, so a
  // page is serialized once (BENCHMARKS.md, "Closer to the wire"). Emptied when a fill swaps the pets.
  let pages = new Map<string, PageText>()
  // Until the first fill is done, whoever waits for the base waits for it, however early they came.
  let firstFilled: () => void = () => undefined
  let filling: Promise<void> | undefined = new Promise<void>((resolve) => {
    firstFilled = resolve
  })

  /**
   * A record's JSON text, made once: records never change in place (a put stores a new one), and
   * serialising the page was the largest step of a listing's answer (BENCHMARKS.md, "What the
   * profiles changed"). One map for the sessions over this base, so a session that only reads
   * holds no texts of its own (BENCHMARKS.md, "Sessions").
   */
  function textOf(pet: Pet): string {
    let text = texts.get(pet)
    if (text === undefined) {
      text = JSON.stringify(pet)
      texts.set(pet, text)
    }
    return text
  }

  /** The first `limit` pets in id order, of one status or all. */
  function list(status: PetStatus | undefined, limit: number): Pet[] {
    return collection.findMany(status === undefined ? ANY_PET : BY_STATUS[status], { take: limit })
  }

  return {
    textOf,
    /**
     * Stores `pets` in id order, once: a pet without an id takes the one after the pet before it
     * (from 1). In batches, drawn from `pets` as the batches need them, so each batch's drafts die
     * young; the batch sizes are part of the @msw/data workaround.
     */
    fill(pets: Iterable<NewPet & { id?: number }>): Promise<void> {
      const done = fillWith(pets).then(() => {
        firstFilled()
        if (filling === done) filling = undefined
      })
      filling = done
      return done
    },
    /** Resolves once the base is filled; undefined when it is. */
    filled: (): Promise<void> | undefined => filling,
    /** The first `limit` pets in id order, of one status or all. */
    list,
    /** `list`'s page as its JSON text, made once per status and limit. */
    pageText(status: PetStatus | undefined, limit: number): PageText {
      const key = `${status ?? ''}:${limit}`
      let page = pages.get(key)
      if (page === undefined) {
        const pets = list(status, limit)
        let text = '['
        for (let index = 0; index < pets.length; index++) text += `${index === 0 ? '' : ','}${textOf(pets[index]!)}`
        page = { text: `${text}]`, count: pets.length }
        if (pages.size < PAGES_KEPT) pages.set(key, page)
      }
      return page
    },
    get: (id: number): Pet | undefined => byId.get(id),
    /** Every pet, in id order. */
    all: (): Pet[] => collection.findMany(),
    count: (): number => byId.size,
    /** The highest id of the base (0 when empty): a world's own pets have higher ids, or replace one of these. */
    lastId: (): number => lastId,
    /** Counts a session that starts from this base; returns how many now do. */
    use: (): number => ++users,
    /** A session stopped using it; returns how many still do. */
    release: (): number => --users,
    /** How many sessions start from it now. */
    users: (): number => users,
  }

  async function fillWith(pets: Iterable<NewPet & { id?: number }>): Promise<void> {
    const next = new Collection({ schema })
    const nextIndex = new Map<number, Pet>()
    let seeded = 0
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
    for (const pet of pets) {
      seeded = pet.id ?? seeded + 1
      batch.push({ ...pet, id: seeded })
      if (batch.length >= symbols.seedBatchSize(nextIndex.size)) await store()
    }
    if (batch.length > 0) await store()
    // Readers see the whole base or none of it.
    collection = next
    byId = nextIndex
    lastId = seeded
    pages = new Map()
  }
}

export type PetBase = ReturnType<typeof createPetBase>
