import type { operations } from '../contract/openapi-types.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { PetChangeKind } from '../store/pet-change.js'
import type { PetStatus } from '../store/pet.js'
import { createPet } from './create-pet.js'
import { getPet } from './get-pet.js'
import { listPets } from './list-pets.js'
import type { Operation } from './operation.js'

/** An operationId of the contract (fixtures/openapi.yaml). */
export type OperationId = keyof operations

/** What an operation does to a session's pets: reads a page or one pet, or makes a journalled change. */
export type OperationEffect = { reads: 'page' | 'item' } | { writes: PetChangeKind }

/** What a session's operations are built with, besides its pets. */
export interface OperationSettings {
  /** The status of a pet created without one (D4). */
  defaultStatus: PetStatus | undefined
}

/** One operation: its effect, and how to build it over a session's pets. */
export interface OperationEntry {
  /** Read by the `empty` scenario (D29): a read finds nothing, a write goes through. */
  effect: OperationEffect
  /** Builds the operation over a session's pets; it returns data, never a Response. */
  build(store: PetRepository, settings: OperationSettings): Operation
}

/** A table with an entry per operationId (or per `Ids`, in a test). */
export type OperationTable<Ids extends string = OperationId> = { readonly [Id in Ids]: OperationEntry }

/** Lists every operation, held to the contract by the compiler (docs/architecture.md, "Adding an operation"). */
export const OPERATIONS = {
  listPets: { effect: { reads: 'page' }, build: (store) => listPets(store) },
  createPet: { effect: { writes: 'created' }, build: (store, { defaultStatus }) => createPet(store, defaultStatus) },
  getPet: { effect: { reads: 'item' }, build: (store) => getPet(store) },
} as const satisfies OperationTable

/** Lists the operationIds in the table's order, for check-names. */
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[]

/** A session's operations by operationId, as their entries build them. */
export type Operations = { readonly [Id in OperationId]: ReturnType<(typeof OPERATIONS)[Id]['build']> }

/** Builds every operation of the table over `store`. */
export function createOperations(store: PetRepository, settings: OperationSettings): Operations {
  const built: Partial<Record<OperationId, Operation>> = {}
  for (const id of OPERATION_IDS) built[id] = OPERATIONS[id].build(store, settings)
  return built as Operations
}

/** Returns an operation's effect; undefined for a name the table lacks. */
export function effectOf(operationId: string): OperationEffect | undefined {
  return Object.hasOwn(OPERATIONS, operationId) ? OPERATIONS[operationId as OperationId].effect : undefined
}
