import type { SandboxRequest } from '../http/sandbox-request.js'
import { noLatency } from '../faults/fault-config.js'
import type { OperationInput } from '../operations/operation.js'
import { listQuery } from '../operations/list-pets.js'
import type { ListingAhead } from '../state/pet-repository.js'
import type { RouteMatch } from '../contract/create-router.js'
import type { ApiHandlerParts, WorldParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { type Resolution, resolve } from './resolve.js'

/** Holds a listing planned ahead of the rate-limit decision, resolved once. */
export interface PlannedListing {
  apiPath: string
  route: RouteMatch
  resolution: Resolution
  /** Holds the refusal to throw where the input is read. */
  read: { input: OperationInput; ahead: ListingAhead } | { refusal: unknown }
}

/** Plans a listing read with the rate-limit decision (BENCHMARKS.md, "The listing's page read ahead"). */
export function planListing(
  parts: ApiHandlerParts,
  world: WorldParts,
  request: SandboxRequest,
  url: URL,
  method: string,
): PlannedListing | undefined {
  const readAhead = world.store.readAhead
  if (readAhead === undefined) return undefined
  const apiPath = parts.scope.apiPath(url)
  if (apiPath === undefined || (method !== 'GET' && method !== 'HEAD') || !request.headers.has('authorization'))
    return undefined
  const route = parts.router.match('GET', apiPath)
  if (
    route.kind !== 'operation' ||
    route.operation.operationId !== 'listPets' ||
    parts.deprecations.of('listPets') !== undefined
  )
    return undefined
  if (!parts.storeSettled() || !faultsQuiet(world)) return undefined
  // A listing has no body, and resolving it cannot refuse.
  const resolution = resolve(parts, world, { apiPath, route, deprecation: undefined }, method)
  try {
    const input = readInput(parts, request, url, apiPath, resolution) as OperationInput
    return { apiPath, route, resolution, read: { input, ahead: readAhead(listQuery(input)) } }
  } catch (refusal) {
    return { apiPath, route, resolution, read: { refusal } }
  }
}

function faultsQuiet(world: WorldParts): boolean {
  const config = world.faults.config()
  const override = config.operations.listPets
  return (override?.errorRate ?? config.errorRate) === 0 && noLatency(override?.latency ?? config.latency)
}
