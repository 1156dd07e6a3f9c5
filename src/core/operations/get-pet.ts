import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { Pet } from '../store/pet.js'
import type { Operation } from './operation.js'

/**
 * `GET /pets/{petId}`: one pet, or 404 `not_found` for any int64 that names none (D37).
 * Deprecated: the pipeline adds its headers.
 */
export function getPet(store: PetRepository): Operation {
  return {
    handle({ params }) {
      const found = (pet: Pet | undefined) => {
        if (pet === undefined) throw new HttpError(404, ErrorCode.notFound, `pet ${params.petId} does not exist`)
        return { status: 200, body: pet }
      }
      // petId is an int64 by now. Ids are 1 to 2^53-1: any other names no pet, and past 2^53 a
      // number would round onto another id, so it is never looked up.
      const id = Number(params.petId)
      if (!Number.isSafeInteger(id) || id < 1) return found(undefined)
      const pet = store.get(id)
      return pet instanceof Promise ? pet.then(found) : found(pet)
    },
  }
}
