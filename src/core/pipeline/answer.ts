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

/** Answers a request through the whole pipeline, in order; a step refuses by throwing `HttpError`. */
export async function answer(
  parts: ApiHandlerParts,
  world: WorldParts,
  request: SandboxRequest,
  url: URL,
  method: string,
  headers: Headers,
  onBodyText?: (text: string) => void,
): Promise<Reply> {
  // Plans a plain listing ahead, read with the rate-limit decision (BENCHMARKS.md, Redis).
  const listing = world.refusal === undefined ? planListing(parts, world, request, url, method) : undefined
  // A named session's answers say so, refusals included (D34).
  if (world.session !== undefined) headers.set(SESSION_HEADER, world.session)
  // Admits (D16, D17), answering a preflight (D19).
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
  // A session the request names that cannot be served: a bad name (400), or none kept (501), D34.
  if (world.refusal !== undefined) throw world.refusal
  // The operation, or why there is none: 501, 404, 405, 410 (D10, D11, D18).
  const resolved = listing?.resolution ?? resolve(parts, world, admitted, method)
  const { operationId } = resolved.info
  // Applies `Prefer: code=`, then the key's scenario, after the rate limit and before the body (D29, D30).
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
  // Faults hit requests a healthy server would serve: after auth and the rate limit (a failed
  // request still spent quota, as at a real gateway), before the body is read.
  const faulted = world.faults.inject(operationId, headers)
  if (faulted !== undefined) await faulted
  // The input, valid against the contract, or 400 naming the field (D3, D9).
  const read =
    listing === undefined ? readInput(parts, request, url, admitted.apiPath, resolved, onBodyText) : inputOf(listing)
  const input = read instanceof Promise ? await read : read
  // A request made while the store is seeded or reset waits for it.
  await world.ready()
  // `empty` (D29): a read of a page lists nothing, a read of one pet finds nothing; writes work.
  const effect = shaped?.empty === true ? effectOf(operationId) : undefined
  if (effect !== undefined && 'reads' in effect) {
    if (effect.reads === 'item') throw emptyRead(input.params)
    return { status: 200, headers, body: [] }
  }
  const handled = admitted.listed ?? resolved.operation.handle(input)
  const { status, body } = handled instanceof Promise ? await handled : handled
  return { status, headers, body }
}

/** A planned listing's input, read once before the decision; or its refusal, thrown here as the input step would. */
function inputOf({ read }: PlannedListing): OperationInput {
  if ('refusal' in read) throw read.refusal
  return read.input
}
