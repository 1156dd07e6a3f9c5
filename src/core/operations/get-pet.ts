import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { Pet } from '../store/pet.js'
import type { Operation } from './operation.js'

/** `GET /pets/{petId}`: one pet, or 404 `not_found`. Deprecated: the pipeline adds its headers. */
export function getPet(store: PetRepository): Operation {
  return {
    handle({ params }) {
      // petId is an integer of 1 or more by now; one beyond 2^53 can't be stored, so it is a 404.
      const id = Number(params.petId)
      const found = (pet: Pet | undefined) => {
        if (pet === undefined) throw new HttpError(404, ErrorCode.notFound, `pet ${params.petId} does not exist`)
        return { status: 200, body: pet }
      }
      const pet = store.get(id)
      return pet instanceof Promise ? pet.then(found) : found(pet)
    },
  }
}
