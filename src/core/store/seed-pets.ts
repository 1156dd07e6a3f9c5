import type { Faker } from '@faker-js/faker'
// The package root evaluates every locale (a cost every test file that creates a sandbox would pay:
// BENCHMARKS.md, cold cost); this entry evaluates English only. Its ready-made instance is never used to
// generate anything: it lends its class and its English definitions (en over base) to a Faker
// of our own per call. Same class, same definitions: the same pets as `new Faker({ locale: [en, base] })`.
import { faker as english } from '@faker-js/faker/locale/en'
import { PET_STATUSES, type NewPet, type PetStatus } from './pet.js'

/** Seeded pets belong to these categories; a small set, so filtering by category is meaningful. */
export const SEED_CATEGORY_IDS = [1, 2, 3, 4, 5] as const

/**
 * Draws `count` pets, one at a time, from a Faker instance of their own, seeded with `seed`: the
 * same seed always gives the same pets, byte for byte, and no other code shares the generator.
 * The first three pets take the three statuses in a seeded order, so every non-trivial seed shows
 * all three. One at a time so the store can take 100000 of them in batches while each batch's
 * drafts die young, instead of all of them outliving the whole fill.
 *
 * @example
 * [...seedPets(1, 2)] // [{ name: 'Ace', categoryId: 2, status: 'available' }, { name: 'Bruno', ... }]
 */
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
