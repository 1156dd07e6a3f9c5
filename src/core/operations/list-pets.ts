import type { PetRepository } from '../state/pet-repository.js'
import type { Pet, PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

const DEFAULT_LIMIT = 20

const listed = (pets: Pet[]) => ({ status: 200, body: pets })

/** `GET /pets`: the first `limit` pets (default 20) in ascending id order, optionally by status. */
export function listPets(store: PetRepository): Operation {
  return {
    handle({ query }) {
      // Validation has run: limit is an integer in 1..100 and status a PetStatus, when present.
      const limit = first(query.limit)
      const status = first(query.status) as PetStatus | undefined
      const pets = store.list({ limit: limit === undefined ? DEFAULT_LIMIT : Number(limit), status })
      return pets instanceof Promise ? pets.then(listed) : listed(pets)
    },
  }
}

/** The first of a parameter's values, as `URLSearchParams.get` reads a repeated one. */
function first(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0]
}
