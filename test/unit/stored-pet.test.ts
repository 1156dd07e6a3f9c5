import { expect, it } from 'vitest'
import { createPetBase } from '../../src/core/store/create-pet-base.js'
import { baseOrigin, createPetPool, createPetStore } from '../../src/core/store/create-pet-store.js'
import type { NewPet } from '../../src/core/store/pet.js'
import { storedPet } from '../../src/core/store/stored-pet.js'

it('builds a plain object with the fields of the pet and nothing else', () => {
  const pet = storedPet({ id: 3, name: 'Ace', categoryId: 2, status: 'sold' })
  expect(Object.getPrototypeOf(pet)).toBe(Object.prototype)
  expect(pet).toStrictEqual({ id: 3, name: 'Ace', categoryId: 2, status: 'sold' })
  expect(JSON.stringify(pet)).toBe('{"id":3,"name":"Ace","categoryId":2,"status":"sold"}')
})

it('leaves status out when the pet has none, rather than storing undefined', () => {
  const pet = storedPet({ id: 4, name: 'Bo', categoryId: 1 })
  expect('status' in pet).toBe(false)
  expect(Object.keys(pet)).toEqual(['id', 'name', 'categoryId'])
})

it('copies: the stored record does not change with the object it was made from', () => {
  const draft = { id: 5, name: 'Cy', categoryId: 4 }
  const pet = storedPet(draft)
  draft.name = 'Changed'
  expect(pet.name).toBe('Cy')
})

it('is what the store keeps: its pets compare strictly equal to plain literals', async () => {
  const store = storeOver(() => [
    { name: 'Ace', categoryId: 2, status: 'sold' as const },
    { name: 'Bo', categoryId: 1 },
  ])
  await store.start()
  const created = await store.create({ name: 'Cy', categoryId: 3, status: 'pending' })
  expect(store.all()).toStrictEqual([
    { id: 1, name: 'Ace', categoryId: 2, status: 'sold' },
    { id: 2, name: 'Bo', categoryId: 1 },
    { id: 3, name: 'Cy', categoryId: 3, status: 'pending' },
  ])
  expect(Object.getPrototypeOf(created)).toBe(Object.prototype)
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
