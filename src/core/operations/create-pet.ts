import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

/** D5: names are 1 to 200 characters once trimmed. */
export const MAX_NAME_LENGTH = 200

/**
 * `POST /pets`: stores a NewPet and answers 201 with the stored Pet. The body is valid against
 * NewPet by now; only what JSON Schema can't say is checked here (the trimmed name length, D5).
 * Other properties, a client-sent `id` among them, are ignored (D7).
 */
export function createPet(store: PetRepository, defaultStatus: PetStatus | undefined): Operation {
  return {
    async handle({ body }) {
      const name = String(body?.name).trim()
      if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
        throw new HttpError(400, ErrorCode.invalidRequest, `name must be 1 to ${MAX_NAME_LENGTH} characters after trimming`)
      }
      const status = (body?.status as PetStatus | undefined) ?? defaultStatus
      const pet = await store.create({ name, categoryId: body?.categoryId as number, ...(status === undefined ? {} : { status }) })
      return { status: 201, body: pet }
    },
  }
}
