import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { Pet } from '../store/pet.js'
import type { Operation } from './operation.js'

/** Creates `GET /pets/{petId}` (D37). */
export function getPet(store: PetRepository): Operation {
  return {
    handle({ params }) {
      const found = (pet: Pet | undefined) => {
        if (pet === undefined) throw new HttpError(404, ErrorCode.notFound, `pet ${params.petId} does not exist`)
        return { status: 200, body: pet }
      }
      // Looks up only safe integers: a larger one rounds onto another id.
      const id = Number(params.petId)
      if (!Number.isSafeInteger(id) || id < 1) return found(undefined)
      const pet = store.get(id)
      return pet instanceof Promise ? pet.then(found) : found(pet)
    },
  }
}
