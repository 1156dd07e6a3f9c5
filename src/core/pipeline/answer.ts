import type { SandboxRequest } from '../http/sandbox-request.js'
import type { Reply } from '../http/reply.js'
import { admit } from './admit.js'
import { type PlannedListing, planListing } from './plan-listing.js'
import type { OperationInput } from '../operations/operation.js'
import { effectOf } from '../operations/operation-table.js'
import type { ApiHandlerParts, WorldParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { resolve } from './resolve.js'
import { emptyRead } from '../scenarios/create-scenarios.js'
import { forcedError, PREFERENCE_APPLIED_HEADER, preferredStatus } from '../scenarios/forced-status.js'
import { SESSION_HEADER } from '../sessions/session-name.js'

/** Answers a request through the pipeline; a step refuses by throwing `HttpError`. */
export async function answer(
  parts: ApiHandlerParts,
  world: WorldParts,
  request: SandboxRequest,
  url: URL,
  method: string,
  headers: Headers,
  onBodyText?: (text: string) => void,
): Promise<Reply> {
  // Read with the rate-limit decision (BENCHMARKS.md, Redis).
  const listing = world.refusal === undefined ? planListing(parts, world, request, url, method) : undefined
  // Refusals included (D34).
  if (world.session !== undefined) headers.set(SESSION_HEADER, world.session)
  // Admits: the key, the quota and a preflight (D16, D17, D19).
  let admitted: Awaited<ReturnType<typeof admit>>
  try {
    const admission = admit(parts, world, request, url, method, headers, listing)
    admitted = admission instanceof Promise ? await admission : admission
  } catch (error) {
    world.settle?.(false)
    throw error
  }
  world.settle?.(!('status' in admitted))
  if ('status' in admitted) return admitted
  // A session the request names that cannot be served: 400 or 501 (D34).
  if (world.refusal !== undefined) throw world.refusal
  // The operation, or why there is none: 501, 404, 405, 410 (D10, D11, D18).
  const resolved = listing?.resolution ?? resolve(parts, world, admitted, method)
  const { operationId } = resolved.info
  // After the rate limit, before the body (D29, D30).
  const preferred = parts.prefer
    ? preferredStatus(request.headers.get('prefer'), operationId, parts.forcible.get(operationId))
    : undefined
  if (preferred !== undefined) {
    headers.set(PREFERENCE_APPLIED_HEADER, `code=${preferred}`)
    if (preferred >= 400)
      throw forcedError(preferred, `Prefer: code=${preferred}`, headers, world.clock.now(), admitted.deprecation)
  }
  const shaping =
    preferred === undefined
      ? world.scenarios.shape(admitted.key, operationId, headers, world.clock.now, admitted.deprecation)
      : undefined
  const shaped = shaping === undefined ? undefined : await shaping
  // After the rate limit: a failed request still spent quota.
  const faulted = world.faults.inject(operationId, headers)
  if (faulted !== undefined) await faulted
  // The input, valid against the contract, or a 400 naming the field (D3, D9).
  const read =
    listing === undefined ? readInput(parts, request, url, admitted.apiPath, resolved, onBodyText) : inputOf(listing)
  const input = read instanceof Promise ? await read : read
  await world.ready()
  // `empty`: a read lists or finds nothing, a write works (D29).
  const effect = shaped?.empty === true ? effectOf(operationId) : undefined
  if (effect !== undefined && 'reads' in effect) {
    if (effect.reads === 'item') throw emptyRead(input.params)
    return { status: 200, headers, body: [] }
  }
  const handled = admitted.listed ?? resolved.operation.handle(input)
  const { status, body } = handled instanceof Promise ? await handled : handled
  return { status, headers, body }
}

/** Gives a planned listing's input, or throws its refusal as the input step would. */
function inputOf({ read }: PlannedListing): OperationInput {
  if ('refusal' in read) throw read.refusal
  return read.input
}
