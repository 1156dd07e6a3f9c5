import type { components } from '../contract/openapi-types.js'

type Schemas = components['schemas']

/**
 * A pet's availability, as the contract's `PetStatus` enum declares it.
 *
 * @example
 * const status: PetStatus = 'sold'
 */
export type PetStatus = Schemas['PetStatus']

/**
 * The statuses at run time, in the contract's order. `satisfies` plus the check below keep this
 * list and the generated `PetStatus` equal: a status added to the YAML fails the type check here.
 *
 * @example
 * PET_STATUSES.includes(value as PetStatus)
 */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly PetStatus[]

// Fails to compile when fixtures/openapi.yaml gains a status PET_STATUSES does not list.
const everyStatusListed: Exclude<PetStatus, (typeof PET_STATUSES)[number]> extends never ? true : false = true
void everyStatusListed

/**
 * An animal as stored and returned (spec section 2): the contract's `Pet` schema.
 *
 * @example
 * const pet: Pet = { id: 1, name: 'Biscuit', categoryId: 2, status: 'pending' }
 */
export type Pet = Schemas['Pet']

/**
 * What a client sends to create a pet (`POST /pets`): the contract's `NewPet` schema, every field
 * but the id.
 *
 * @example
 * const newPet: NewPet = { name: 'Biscuit', categoryId: 2 }
 */
export type NewPet = Schemas['NewPet']
