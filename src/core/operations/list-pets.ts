import type { PetRepository } from '../state/pet-repository.js'
import type { JsonText } from '../http/json-text.js'
import type { ListQuery } from '../store/create-pet-store.js'
import type { Pet, PetStatus } from '../store/pet.js'
import type { Operation, OperationInput, OperationResult } from './operation.js'

const DEFAULT_LIMIT = 20

/** `GET /pets`: the first `limit` pets (default 20) in ascending id order, optionally by status. */
export function listPets(store: PetRepository): Operation {
  const listing = {
    query({ query }: OperationInput): ListQuery {
      // Validation has run: limit is an integer in 1..100 and status a PetStatus, when present.
      const limit = first(query.limit)
      const status = first(query.status) as PetStatus | undefined
      return { limit: limit === undefined ? DEFAULT_LIMIT : Number(limit), status }
    },
    answer: (pets: Pet[] | JsonText): OperationResult => ({ status: 200, body: pets }),
  }
  return {
    listing,
    handle(input) {
      const pets = store.list(listing.query(input))
      return pets instanceof Promise ? pets.then(listing.answer) : listing.answer(pets)
    },
  }
}

/** The first of a parameter's values, as `URLSearchParams.get` reads a repeated one. */
function first(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0]
}
