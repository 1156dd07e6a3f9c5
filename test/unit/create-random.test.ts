import { expect, it } from 'vitest'
import { createRandom, seedFor } from '../../src/core/faults/create-random.js'

it('repeats its sequence for a seed and differs for another', () => {
  const draw = (seed: number) => {
    const random = createRandom(seed)
    return Array.from({ length: 5 }, random)
  }
  expect(draw(3)).toEqual(draw(3))
  expect(draw(3)).not.toEqual(draw(4))
  expect(draw(3).every((value) => value >= 0 && value < 1)).toBe(true)
})

it('gives each operation its own stream of a seed', () => {
  expect(seedFor(7, 'listPets')).toBe(seedFor(7, 'listPets'))
  expect(seedFor(7, 'listPets')).not.toBe(seedFor(7, 'createPet'))
  expect(seedFor(7, 'listPets')).not.toBe(seedFor(8, 'listPets'))
})
