import type { components } from '../contract/openapi-types.js'

type Schemas = components['schemas']

export type PetStatus = Schemas['PetStatus']

export const PET_STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly PetStatus[]

// Fails to compile when the contract gains a status PET_STATUSES lacks.
const everyStatusListed: Exclude<PetStatus, (typeof PET_STATUSES)[number]> extends never ? true : false = true
void everyStatusListed

export type Pet = Schemas['Pet']

export type NewPet = Schemas['NewPet']
