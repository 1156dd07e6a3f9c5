import type { operations } from '../contract/openapi-types.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { PetChangeKind } from '../store/pet-change.js'
import type { PetStatus } from '../store/pet.js'
import { createPet } from './create-pet.js'
import { getPet } from './get-pet.js'
import { listPets } from './list-pets.js'
import type { Operation } from './operation.js'

export type OperationId = keyof operations

/** Says what an operation does to a session's pets. */
export type OperationEffect = { reads: 'page' | 'item' } | { writes: PetChangeKind }

export interface OperationSettings {
  defaultStatus: PetStatus | undefined
}

export interface OperationEntry {
  /** Tells the `empty` scenario what finds nothing (D29). */
  effect: OperationEffect
  build(store: PetRepository, settings: OperationSettings): Operation
}

export type OperationTable<Ids extends string = OperationId> = { readonly [Id in Ids]: OperationEntry }

/** Lists every operation; the compiler holds it to the contract (docs/architecture.md). */
export const OPERATIONS = {
  listPets: { effect: { reads: 'page' }, build: (store) => listPets(store) },
  createPet: { effect: { writes: 'created' }, build: (store, { defaultStatus }) => createPet(store, defaultStatus) },
  getPet: { effect: { reads: 'item' }, build: (store) => getPet(store) },
} as const satisfies OperationTable

/** Lists the operationIds, for check-names. */
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[]

export type Operations = { readonly [Id in OperationId]: ReturnType<(typeof OPERATIONS)[Id]['build']> }

export function createOperations(store: PetRepository, settings: OperationSettings): Operations {
  const built: Partial<Record<OperationId, Operation>> = {}
  for (const id of OPERATION_IDS) built[id] = OPERATIONS[id].build(store, settings)
  return built as Operations
}

export function effectOf(operationId: string): OperationEffect | undefined {
  return Object.hasOwn(OPERATIONS, operationId) ? OPERATIONS[operationId as OperationId].effect : undefined
}
