import { jsonResponse } from '../http/json-response.js'
import type { PetStore } from '../store/create-pet-store.js'
import type { PetStatus } from '../store/pet.js'
import type { Operation } from './operation.js'

const DEFAULT_LIMIT = 20

/** `GET /pets`: the first `limit` pets (default 20) in ascending id order, optionally by status. */
export function listPets(store: PetStore): Operation {
  return {
    readsBody: false,
    handle({ url, headers, request }) {
      // Validation has run: limit is an integer in 1..100 and status a PetStatus, when present.
      const limit = url.searchParams.get('limit')
      const status = url.searchParams.get('status') as PetStatus | null
      const pets = store.list({ limit: limit === null ? DEFAULT_LIMIT : Number(limit), status: status ?? undefined })
      return jsonResponse(pets, 200, headers, request)
    },
  }
}
