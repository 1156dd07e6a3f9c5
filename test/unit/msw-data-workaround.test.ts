import { Collection } from '@msw/data'
import { expect, it } from 'vitest'
import { createPetBase } from '../../src/core/store/create-pet-base.js'
import { baseOrigin, createPetPool, createPetStore } from '../../src/core/store/create-pet-store.js'
import type { NewPet } from '../../src/core/store/pet.js'
import { createPetSchema } from '../../src/core/store/create-pet-schema.js'
import { createMswDataWorkaround } from '../../src/core/store/msw-data-workaround.js'
import { storedPet } from '../../src/core/store/stored-pet.js'

const hidden = (record: object, description: string): unknown => {
  const symbol = Object.getOwnPropertySymbols(record).find((candidate) => candidate.description === description)
  return symbol === undefined ? undefined : (record as Record<symbol, unknown>)[symbol]
}
const primaryKeyOf = (record: object) => hidden(record, 'kPrimaryKey')
const relationMapOf = (record: object) => hidden(record, 'kRelationMap') as Map<string, unknown>

function collectionWithSymbols() {
  const symbols = createMswDataWorkaround()
  const collection = new Collection({ schema: createPetSchema((pet) => symbols.prepared(storedPet(pet))) })
  return { symbols, collection }
}

it('finds the two @msw/data internals the workaround relies on (if this fails, check whether @msw/data fixed the per-record Map and remove the workaround)', async () => {
  const collection = new Collection({ schema: createPetSchema() })
  const record = await collection.create({ id: 1, name: 'Ace', categoryId: 1 })
  const descriptions = Object.getOwnPropertySymbols(record).map((symbol) => symbol.description)
  expect(descriptions, '@msw/data no longer marks records with kPrimaryKey and kRelationMap').toEqual(
    expect.arrayContaining(['kPrimaryKey', 'kRelationMap']),
  )
  // The slot the workaround replaces must still be a Map of the record's own.
  expect(relationMapOf(record)).toBeInstanceOf(Map)
})

it("keys @msw/data records by the pet's id once it has seen the collection's symbol", async () => {
  const { symbols, collection } = collectionWithSymbols()
  const first = await collection.create(symbols.keyed({ id: 1, name: 'Ace', categoryId: 1 }))
  // Nothing learnt yet: the collection's own random UUID.
  expect(primaryKeyOf(first)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  symbols.settle(first)
  const second = await collection.create(symbols.keyed({ id: 2, name: 'Bo', categoryId: 2, status: 'sold' as const }))
  expect(primaryKeyOf(second)).toBe(2)
  // The key travels as a hidden property: the record is the pet and nothing else.
  expect(second).toEqual({ id: 2, name: 'Bo', categoryId: 2, status: 'sold' })
  expect(JSON.stringify(second)).toBe('{"id":2,"name":"Bo","categoryId":2,"status":"sold"}')
})

it('points every record after the first at one shared, empty relation map', async () => {
  const { symbols, collection } = collectionWithSymbols()
  const first = await collection.create(symbols.keyed({ id: 1, name: 'Ace', categoryId: 1 }))
  symbols.settle(first)
  const second = await collection.create(symbols.keyed({ id: 2, name: 'Bo', categoryId: 2 }))
  const third = await collection.create(symbols.keyed({ id: 3, name: 'Cy', categoryId: 3 }))
  // The collection gave each record a map of its own ...
  expect(relationMapOf(second)).toBeInstanceOf(Map)
  expect(relationMapOf(second)).not.toBe(relationMapOf(third))
  symbols.settle(second)
  symbols.settle(third)
  // ... which settle replaces with the shared one; the first record keeps its own.
  expect(relationMapOf(second)).toBe(relationMapOf(third))
  expect(relationMapOf(second)).not.toBe(relationMapOf(first))
  expect(relationMapOf(second).size).toBe(0)
  // The map is hidden like the collection's own: the record is still the pet and nothing else.
  expect(second).toStrictEqual({ id: 2, name: 'Bo', categoryId: 2 })
  expect(
    Object.getOwnPropertyDescriptor(
      second,
      Object.getOwnPropertySymbols(second).find((s) => s.description === 'kRelationMap')!,
    )?.enumerable,
  ).toBe(false)
})

it('refuses to relate records through the shared map, instead of relating them all', async () => {
  const { symbols, collection } = collectionWithSymbols()
  symbols.settle(await collection.create(symbols.keyed({ id: 1, name: 'Ace', categoryId: 1 })))
  const second = await collection.create(symbols.keyed({ id: 2, name: 'Bo', categoryId: 2 }))
  symbols.settle(second)
  expect(() => relationMapOf(second).set('owner', {})).toThrow(TypeError)
  expect(relationMapOf(second).size).toBe(0)
})

it('leaves a record the collection made itself (an update) its map rather than throwing', async () => {
  const { symbols, collection } = collectionWithSymbols()
  symbols.settle(await collection.create(symbols.keyed({ id: 1, name: 'Ace', categoryId: 1 })))
  const second = await collection.create(symbols.keyed({ id: 2, name: 'Bo', categoryId: 2 }))
  symbols.settle(second)
  const updated = await collection.update((q) => q.where({ id: 2 }), {
    data: (draft) => {
      draft.name = 'Bea'
    },
    strict: true,
  })
  expect(() => symbols.settle(updated)).not.toThrow()
  // The update carried the shared map over, and the record is the updated pet.
  expect(relationMapOf(updated)).toBe(relationMapOf(second))
  expect(updated).toEqual({ id: 2, name: 'Bea', categoryId: 2 })
})

it('stores the seeded pets under their ids as primary keys, sharing one relation map; created and replaced ones stay plain', async () => {
  const store = storeOver(() => Array.from({ length: 2500 }, (_, i) => ({ name: `Pet ${i}`, categoryId: 1 + (i % 5) })))
  await store.start()
  const created = await store.create({ name: 'New', categoryId: 3 })
  const replaced = await store.put({ id: 7, name: 'Seven', categoryId: 2, status: 'pending' })
  const all = store.all()
  expect(all).toHaveLength(2501)
  const seeded = all.slice(1, 2500)
  // The first record of the first seeding batch is the one the symbols are learnt from.
  expect(seeded.filter((pet) => pet.id !== 7).every((pet) => primaryKeyOf(pet) === pet.id)).toBe(true)
  expect(new Set(seeded.filter((pet) => pet.id !== 7).map(relationMapOf)).size).toBe(1)
  // A world's own pets live in its overlay (copy-on-write, D34), outside the collection.
  expect(Object.getOwnPropertySymbols(created)).toEqual([])
  expect(Object.getOwnPropertySymbols(replaced)).toEqual([])
  expect(all[2500]).toBe(created)
  expect(store.get(7)).toEqual({ id: 7, name: 'Seven', categoryId: 2, status: 'pending' })
})

it('starts over on a reset without filling again: the base keeps its records (D34)', async () => {
  const store = storeOver(() => Array.from({ length: 300 }, (_, i) => ({ name: `Pet ${i}`, categoryId: 1 })))
  await store.start()
  const before = store.all()
  await store.create({ name: 'Gone after reset', categoryId: 2 })
  await store.reset()
  const all = store.all()
  expect(all).toHaveLength(300)
  expect(all.every((pet, index) => pet === before[index])).toBe(true)
  expect(new Set(all.slice(1).map(relationMapOf)).size).toBe(1)
})

/** A world's store over a base of `seed`, as a sandbox composes one. */
function storeOver(seed: () => Iterable<NewPet>) {
  const base = createPetBase()
  const store = createPetStore({ origin: () => baseOrigin(base), pool: createPetPool(), filled: () => base.filled() })
  return {
    ...store,
    start: () => {
      void base.fill(seed())
      return store.start()
    },
  }
}
