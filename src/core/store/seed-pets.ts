import type { Faker } from '@faker-js/faker'
// English only: the root evaluates every locale (BENCHMARKS.md, cold cost).
import { faker as english } from '@faker-js/faker/locale/en'
import { PET_STATUSES, type NewPet, type PetStatus } from './pet.js'

/** Lists few seeded categories, so a filter finds pets. */
export const SEED_CATEGORY_IDS = [1, 2, 3, 4, 5] as const

/** Draws `count` pets; the first three show every status. */
export function* seedPets(seed: number, count: number): Generator<NewPet, void, undefined> {
  const faker: Faker = new (english.constructor as typeof Faker)({ locale: english.rawDefinitions, seed })
  const firstStatuses = faker.helpers.shuffle([...PET_STATUSES])
  for (let index = 0; index < count; index++) {
    const status: PetStatus = firstStatuses[index] ?? faker.helpers.arrayElement(PET_STATUSES)
    yield {
      name: faker.animal.petName(),
      categoryId: faker.helpers.arrayElement(SEED_CATEGORY_IDS),
      status,
    }
  }
}
