import { JsonText } from '../http/to-response.js'
import type { ListQuery, PetRepository } from '../state/pet-repository.js'
import type { Pet, PetStatus } from '../store/pet.js'
import type { Operation, OperationInput, OperationResult } from './operation.js'

const DEFAULT_LIMIT = 20

/** Creates `GET /pets`. */
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

export function listQuery({ query }: OperationInput): ListQuery {
  // Casts safely: validation has run.
  const limit = first(query.limit)
  const status = first(query.status) as PetStatus | undefined
  return { limit: limit === undefined ? DEFAULT_LIMIT : Number(limit), status }
}

export function listed(pets: Pet[] | JsonText): OperationResult {
  return { status: 200, body: pets }
}

function first(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0]
}
