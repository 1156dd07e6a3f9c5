import type { OperationInput } from '../operations/operation.js'
import { listQuery } from '../operations/list-pets.js'
import type { ListQuery } from '../state/pet-repository.js'
import type { ApiHandlerParts, WorldParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { resolve } from './resolve.js'

/** A listing whose page a shared state reads together with the rate-limit decision. */
export interface PlannedListing {
  /** The request's input, valid: the pipeline does not read it twice. */
  input: OperationInput
  query: ListQuery
}

/**
 * For a state that can read a page of pets with the rate-limit decision (`takeThenList`, one
 * round trip instead of two: BENCHMARKS.md, the Redis section): the page a request will list if it
 * is allowed, when nothing between the decision and the operation could stop it or change what it
 * reads: a keyed `GET /pets` without deprecation, valid input, no fault configured for it, and no
 * seeding or reset of this process under way. Otherwise undefined. It refuses nothing: a request
 * it cannot plan takes the pipeline's steps one by one, which refuse it after the decision, as
 * every request is refused, so the answers and headers are the same either way.
 */
export async function planListing(parts: ApiHandlerParts, world: WorldParts, request: Request, url: URL, method: string): Promise<PlannedListing | undefined> {
  const apiPath = parts.scope.apiPath(url)
  if (apiPath === undefined || (method !== 'GET' && method !== 'HEAD') || !request.headers.has('authorization')) return undefined
  const route = parts.router.match('GET', apiPath)
  if (route.kind !== 'operation' || route.operation.operationId !== 'listPets' || parts.deprecations.of('listPets') !== undefined) return undefined
  if (!parts.storeSettled() || !faultsQuiet(world)) return undefined
  try {
    const input = await readInput(parts, request, url, apiPath, resolve(parts, world, { apiPath, route, deprecation: undefined }, method))
    return { input, query: listQuery(input) }
  } catch {
    return undefined
  }
}

function faultsQuiet(world: WorldParts): boolean {
  const config = world.faults.config()
  const override = config.operations.listPets
  return (override?.errorRate ?? config.errorRate) === 0 && (override?.latency ?? config.latency).max === 0
}
