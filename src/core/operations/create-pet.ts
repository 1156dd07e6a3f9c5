import { checkInput } from '../contract/check-input.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { NewPet, Pet, PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

/**
 * `POST /pets` and `sandbox.pets.create`, one path for both: `store` stores a NewPet as the API
 * does (stored trimmed, D5; the default status when none is given, D4) and returns the stored Pet.
 * Over HTTP the contract's NewPet schema has refused any other body by now; in-process `store`
 * holds the pet to the same schema first (checkInput), and refuses it in the same words with a
 * ConfigError. Other properties, a client-sent `id` among them, are ignored (D7).
 */
export function createPet(store: PetRepository, defaultStatus: PetStatus | undefined) {
  async function stored(pet: NewPet): Promise<Pet> {
    const status = pet.status ?? defaultStatus
    return store.create({
      name: pet.name.trim(),
      categoryId: pet.categoryId,
      ...(status === undefined ? {} : { status }),
    })
  }
  return {
    async handle({ body }) {
      return { status: 201, body: await stored(body as unknown as NewPet) }
    },
    store: (pet: NewPet) => stored(checkInput<NewPet>('NewPet', pet)),
  } satisfies Operation & { store: unknown }
}
