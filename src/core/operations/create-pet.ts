import type { PetRepository } from '../state/pet-repository.js'
import type { PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

/**
 * `POST /pets`: stores a NewPet and answers 201 with the stored Pet. The body is valid against
 * NewPet by now (a name of 1 to 200 characters, not all white space: D5), and the name is stored
 * trimmed. Other properties, a client-sent `id` among them, are ignored (D7).
 */
export function createPet(store: PetRepository, defaultStatus: PetStatus | undefined): Operation {
  return {
    async handle({ body }) {
      const name = String(body?.name).trim()
      const status = (body?.status as PetStatus | undefined) ?? defaultStatus
      const pet = await store.create({ name, categoryId: body?.categoryId as number, ...(status === undefined ? {} : { status }) })
      return { status: 201, body: pet }
    },
  }
}
