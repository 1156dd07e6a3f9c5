import type { components } from '../contract/openapi-types.js'

type Schemas = components['schemas']

/** A pet's availability: the contract's `PetStatus`. */
export type PetStatus = Schemas['PetStatus']

/** Lists the statuses at run time, in the contract's order; the check below holds it to `PetStatus`. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly PetStatus[]

// Fails to compile when fixtures/openapi.yaml gains a status PET_STATUSES does not list.
const everyStatusListed: Exclude<PetStatus, (typeof PET_STATUSES)[number]> extends never ? true : false = true
void everyStatusListed

/** An animal as stored and returned: the contract's `Pet`. */
export type Pet = Schemas['Pet']

/** What a client sends to create a pet: the contract's `NewPet`. */
export type NewPet = Schemas['NewPet']
