import type { RouteMatch } from '../contract/create-router.js'
import type { JsonText } from '../http/json-text.js'
import type { Deprecation } from '../http/create-deprecations.js'
import type { OperationInput, OperationResult } from '../operations/operation.js'
import type { ListQuery } from '../store/create-pet-store.js'
import type { Pet } from '../store/pet.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { resolve } from './resolve.js'

/** A listing a shared backend may read together with the rate-limit decision. */
export interface PlannedListing {
  /** The request's input, valid: the pipeline does not read it twice. */
  input: OperationInput
  query: ListQuery
  answer: (pets: Pet[] | JsonText) => OperationResult
}

/**
 * The page of pets a request will list if it is allowed, when nothing between the decision and
 * the operation could stop it or change what it reads: a listing operation without deprecation or
 * body, valid input, no fault configured for it, and no seeding or reset of this process under
 * way. Otherwise undefined, and the request takes the pipeline's usual steps one by one. Either
 * way the pipeline then takes every step as usual, so the answers and headers are the same.
 */
export async function planListing(
  parts: ApiHandlerParts,
  request: Request,
  url: URL,
  method: string,
  apiPath: string | undefined,
  route: RouteMatch | undefined,
  deprecation: Deprecation | undefined,
): Promise<PlannedListing | undefined> {
  if (apiPath === undefined || route?.kind !== 'operation' || deprecation !== undefined || route.operation.readsBody) return undefined
  const listing = parts.operations[route.operation.operationId]?.listing
  if (listing === undefined || !parts.storeSettled() || !faultsQuiet(parts, route.operation.operationId)) return undefined
  try {
    const resolved = resolve(parts, { apiPath, route, deprecation }, method)
    const input = await readInput(parts, request, url, apiPath, resolved)
    return { input, query: listing.query(input), answer: listing.answer }
  } catch {
    // The usual steps refuse it, after the decision, with the same error.
    return undefined
  }
}

function faultsQuiet(parts: ApiHandlerParts, operationId: string): boolean {
  const config = parts.faults.config()
  const override = config.operations[operationId]
  return (override?.errorRate ?? config.errorRate) === 0 && (override?.latency ?? config.latency).max === 0
}
