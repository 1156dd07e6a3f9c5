import { Collection, Query } from './msw-data.js'
import { createLru } from '../cache/create-lru.js'
import { PET_STATUSES, type NewPet, type Pet, type PetStatus } from './pet.js'
import { createPetSchema } from './create-pet-schema.js'
import { createMswDataWorkaround } from './msw-data-workaround.js'
import { storedPet } from './stored-pet.js'

// Built once (BENCHMARKS.md, "What the profiles changed").
const ANY_PET = new Query<Pet>(() => true)
const BY_STATUS = Object.fromEntries(
  PET_STATUSES.map((status) => [status, new Query<Pet>((pet) => pet.status === status)]),
) as Record<PetStatus, Query<Pet>>

// Yields so a large seed does not starve the probes.
const PETS_PER_YIELD = 5_000
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

const PAGES_KEPT = (PET_STATUSES.length + 1) * 100

export interface PageText {
  text: string
  count: number
}

/** Creates the immutable pets sessions share (D34), in id order (D8). */
export function createPetBase() {
  const symbols = createMswDataWorkaround()
  const schema = createPetSchema((pet) => symbols.prepared(storedPet(pet)))
  let collection = new Collection({ schema })
  let byId = new Map<number, Pet>()
  let lastId = 0
  // Its pets count against maxPets while used.
  let users = 0
  const texts = new WeakMap<Pet, string>()
  // Emptied on each fill (BENCHMARKS.md, "Closer to the wire").
  let pages = createLru<PageText>(() => PAGES_KEPT)
  let firstFilled: () => void = () => undefined
  let filling: Promise<void> | undefined = new Promise<void>((resolve) => {
    firstFilled = resolve
  })

  function textOf(pet: Pet): string {
    let text = texts.get(pet)
    if (text === undefined) {
      text = JSON.stringify(pet)
      texts.set(pet, text)
    }
    return text
  }

  function list(status: PetStatus | undefined, limit: number): Pet[] {
    return collection.findMany(status === undefined ? ANY_PET : BY_STATUS[status], { take: limit })
  }

  return {
    textOf,
    fill(pets: Iterable<NewPet & { id?: number }>): Promise<void> {
      const done = fillWith(pets).then(() => {
        firstFilled()
        if (filling === done) filling = undefined
      })
      filling = done
      return done
    },
    /** Resolves once filled; undefined when it is. */
    filled: (): Promise<void> | undefined => filling,
    list,
    /** Returns `list`'s page as JSON, cached. */
    pageText(status: PetStatus | undefined, limit: number): PageText {
      const key = `${status ?? ''}:${limit}`
      let page = pages.peek(key)
      if (page === undefined) {
        const pets = list(status, limit)
        let text = '['
        for (let index = 0; index < pets.length; index++) text += `${index === 0 ? '' : ','}${textOf(pets[index]!)}`
        page = { text: `${text}]`, count: pets.length }
        pages.put(key, page)
      }
      return page
    },
    get: (id: number): Pet | undefined => byId.get(id),
    all: (): Pet[] => collection.findMany(),
    count: (): number => byId.size,
    lastId: (): number => lastId,
    use: (): number => ++users,
    release: (): number => --users,
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
    // Swapped whole: readers see all or none.
    collection = next
    byId = nextIndex
    lastId = seeded
    pages = createLru<PageText>(() => PAGES_KEPT)
  }
}

export type PetBase = ReturnType<typeof createPetBase>
