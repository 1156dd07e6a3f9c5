import { Collection } from '@msw/data'
import { expect, it } from 'vitest'
import { createPetStore } from '../../src/store/create-pet-store.js'
import { createPrimaryKeys } from '../../src/store/create-primary-keys.js'
import { petSchema } from '../../src/store/pet-schema.js'

const primaryKeyOf = (record: object) => {
  const symbol = Object.getOwnPropertySymbols(record).find((candidate) => candidate.description === 'kPrimaryKey')
  return symbol === undefined ? undefined : (record as Record<symbol, unknown>)[symbol]
}

it("keys @msw/data records by the pet's id once it has seen the collection's symbol", async () => {
  const collection = new Collection({ schema: petSchema })
  const keys = createPrimaryKeys()
  const first = await collection.create(keys.keyed({ id: 1, name: 'Ace', categoryId: 1 }))
  // Nothing learnt yet: the collection's own random UUID.
  expect(primaryKeyOf(first)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  keys.learn(first)
  const second = await collection.create(keys.keyed({ id: 2, name: 'Bo', categoryId: 2, status: 'sold' as const }))
  expect(primaryKeyOf(second)).toBe(2)
  // The key travels as a hidden property: the record is the pet and nothing else.
  expect(second).toEqual({ id: 2, name: 'Bo', categoryId: 2, status: 'sold' })
  expect(JSON.stringify(second)).toBe('{"id":2,"name":"Bo","categoryId":2,"status":"sold"}')
})

it('stores seeded, created and replaced pets under their ids as primary keys', async () => {
  const store = createPetStore({ seed: () => Array.from({ length: 2500 }, (_, i) => ({ name: `Pet ${i}`, categoryId: 1 + (i % 5) })) })
  await store.start()
  const created = await store.create({ name: 'New', categoryId: 3 })
  const replaced = await store.put({ id: 7, name: 'Seven', categoryId: 2, status: 'pending' })
  const all = store.all()
  expect(all).toHaveLength(2501)
  // The first record of the first seeding batch is the one the symbol is learnt from.
  expect(all.slice(1).every((pet) => primaryKeyOf(pet) === pet.id)).toBe(true)
  expect(primaryKeyOf(created)).toBe(2501)
  expect(primaryKeyOf(replaced)).toBe(7)
  expect(store.get(7)).toEqual({ id: 7, name: 'Seven', categoryId: 2, status: 'pending' })
})
