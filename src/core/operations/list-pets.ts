import { JsonText } from '../http/to-response.js'
import type { ListQuery, PetRepository } from '../state/pet-repository.js'
import type { Pet, PetStatus } from '../store/pet.js'
import type { Operation, OperationInput, OperationResult } from './operation.js'

const DEFAULT_LIMIT = 20

/** `GET /pets`: the first `limit` pets (default 20) in ascending id order, optionally by status. */
export function listPets(store: PetRepository): Operation {
  return {
    handle(input) {
      const query = listQuery(input)
      if (store.listJson !== undefined) return listed(new JsonText(store.listJson(query)))
      const pets = store.list(query)
      return pets instanceof Promise ? pets.then(listed) : listed(pets)
    },
  }
}

/** The page a valid listing asks for. */
export function listQuery({ query }: OperationInput): ListQuery {
  // Validation has run: limit is an integer in 1..100 and status a PetStatus, when present.
  const limit = first(query.limit)
  const status = first(query.status) as PetStatus | undefined
  return { limit: limit === undefined ? DEFAULT_LIMIT : Number(limit), status }
}

/** The answer of a listing: the page, as pets or as their JSON text read with the decision (plan-listing.ts). */
export function listed(pets: Pet[] | JsonText): OperationResult {
  return { status: 200, body: pets }
}

/** The first of a parameter's values, as `URLSearchParams.get` reads a repeated one. */
function first(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0]
}
