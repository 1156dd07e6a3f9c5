import { checkInput } from '../contract/check-input.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { NewPet, Pet, PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

/** Creates `POST /pets` and `sandbox.pets.create` (D4, D5, D7). */
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
