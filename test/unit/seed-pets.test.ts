import { expect, it } from 'vitest'
import { SEED_CATEGORY_IDS, seedPets } from '../../src/core/store/seed-pets.js'

it('gives byte-identical pets for the same seed', () => {
  expect(JSON.stringify([...seedPets(42, 200)])).toBe(JSON.stringify([...seedPets(42, 200)]))
})

it('gives other pets for another seed', () => {
  expect(JSON.stringify([...seedPets(42, 50)])).not.toBe(JSON.stringify([...seedPets(43, 50)]))
})

it('seeds animal names, a small set of categories and all three statuses', () => {
  for (const seed of [1, 2, 3, 99]) {
    const pets = [...seedPets(seed, 50)]
    expect(pets).toHaveLength(50)
    expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set(['available', 'pending', 'sold']))
    expect(pets.every((pet) => (SEED_CATEGORY_IDS as readonly number[]).includes(pet.categoryId))).toBe(true)
    expect(pets.every((pet) => /^[A-Z][\p{L} '.-]*$/u.test(pet.name))).toBe(true)
  }
})

it('shows all three statuses from three pets on', () => {
  expect(new Set([...seedPets(7, 3)].map((pet) => pet.status)).size).toBe(3)
})

it('does not touch a shared generator: drawing from another seed in between changes nothing', () => {
  const first = [...seedPets(5, 10)]
  const five = seedPets(5, 10)
  const six = seedPets(6, 10)
  const interleaved = []
  for (let index = 0; index < 10; index++) {
    interleaved.push(five.next().value)
    six.next()
  }
  expect(interleaved).toEqual(first)
})

it('keeps the pets of a seed from one release to the next', () => {
  expect([...seedPets(1, 4)]).toEqual([
    { name: 'Ace', categoryId: 2, status: 'available' },
    { name: 'Bruno', categoryId: 1, status: 'sold' },
    { name: 'Buddy', categoryId: 2, status: 'pending' },
    { name: 'Kobe', categoryId: 3, status: 'pending' },
  ])
})
