import type { operations } from '../contract/openapi-types.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { PetChangeKind } from '../store/pet-change.js'
import type { PetStatus } from '../store/pet.js'
import { createPet } from './create-pet.js'
import { getPet } from './get-pet.js'
import { listPets } from './list-pets.js'
import type { Operation } from './operation.js'

/** An operationId of the contract, as `npm run generate` types fixtures/openapi.yaml. */
export type OperationId = keyof operations

/** What an operation does to a world's pets: reads a page or one pet, or makes a change of a kind the journal keeps. */
export type OperationEffect = { reads: 'page' | 'item' } | { writes: PetChangeKind }

/** What a world's operations are built with, besides its pets. */
export interface OperationSettings {
  /** The status of a pet created without one (D4). */
  defaultStatus: PetStatus | undefined
}

/** One operation of the contract: what it does to the pets, and its handler over a world's pets. */
export interface OperationEntry {
  /** Read by the `empty` scenario (D29): a read finds nothing, a write goes through. */
  effect: OperationEffect
  /** Builds the operation over a world's pets; it returns data, never a Response. */
  build(store: PetRepository, settings: OperationSettings): Operation
}

/** A table with an entry for each of `Ids`: the contract's operationIds unless a test says otherwise. */
export type OperationTable<Ids extends string = OperationId> = { readonly [Id in Ids]: OperationEntry }

/**
 * Every operation of the contract by operationId. Held to the generated `operations`: an operation
 * added to fixtures/openapi.yaml fails the typecheck here, naming it, until it has its entry
 * (docs/architecture.md, "Adding an operation").
 */
export const OPERATIONS = {
  listPets: { effect: { reads: 'page' }, build: (store) => listPets(store) },
  createPet: { effect: { writes: 'created' }, build: (store, { defaultStatus }) => createPet(store, defaultStatus) },
  getPet: { effect: { reads: 'item' }, build: (store) => getPet(store) },
} as const satisfies OperationTable

/** The operationIds, in the table's order: what check-names holds the docs' lists of operations to. */
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[]

/** A world's operations by operationId, each as its entry builds it (createPet's `store` serves `sandbox.pets.create`). */
export type Operations = { readonly [Id in OperationId]: ReturnType<(typeof OPERATIONS)[Id]['build']> }

/** Builds every operation of the table over `store`. */
export function createOperations(store: PetRepository, settings: OperationSettings): Operations {
  const built: Partial<Record<OperationId, Operation>> = {}
  for (const id of OPERATION_IDS) built[id] = OPERATIONS[id].build(store, settings)
  return built as Operations
}

/** What operation `operationId` does to the pets; undefined for a name the table does not hold. */
export function effectOf(operationId: string): OperationEffect | undefined {
  return Object.hasOwn(OPERATIONS, operationId) ? OPERATIONS[operationId as OperationId].effect : undefined
}
