import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { PET_STATUSES, type NewPet, type PetStatus } from './pet.js'

// faker's main entry imports all of its ~70 locales (about 110 ms of every start-up); the English
// entry loads one. It exports a ready instance only, so its class and its merged definitions
// (en over base, as before) build the instance of each sandbox: same seed, same pets.
const EnglishFaker = englishFaker.constructor as typeof Faker

/** Seeded pets belong to these categories; a small set, so filtering by category is meaningful. */
export const SEED_CATEGORY_IDS = [1, 2, 3, 4, 5] as const

/**
 * Generates `count` pets from a Faker instance of their own, seeded with `seed`: the same seed
 * always gives the same pets, byte for byte, and no other code shares the generator. The first
 * three pets take the three statuses in a seeded order, so every non-trivial seed shows all three.
 */
export function seedPets(seed: number, count: number): NewPet[] {
  const faker = new EnglishFaker({ locale: englishFaker.rawDefinitions, seed })
  const firstStatuses = faker.helpers.shuffle([...PET_STATUSES])
  const pets: NewPet[] = []
  for (let index = 0; index < count; index++) {
    const status: PetStatus = firstStatuses[index] ?? faker.helpers.arrayElement(PET_STATUSES)
    pets.push({
      name: faker.animal.petName(),
      categoryId: faker.helpers.arrayElement(SEED_CATEGORY_IDS),
      status,
    })
  }
  return pets
}
