import type { SandboxRequest } from '../http/sandbox-request.js'
import type { Reply } from '../http/reply.js'
import { admit } from './admit.js'
import type { Admission } from './admission.js'
import { type PlannedListing, planListing } from './plan-listing.js'
import type { OperationInput, OperationResult } from '../operations/operation.js'
import { effectOf } from '../operations/operation-table.js'
import type { ApiHandlerParts, WorldParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { type Resolution, resolve } from './resolve.js'
import { emptyRead, type Shaped } from '../scenarios/create-scenarios.js'
import { forcedError, PREFERENCE_APPLIED_HEADER, preferredStatus } from '../scenarios/forced-status.js'
import { SESSION_HEADER } from '../sessions/session-name.js'
import { andThen, type MaybePromise } from '../state/maybe-promise.js'

/** Answers a request through the pipeline; a step refuses by throwing `HttpError`, in memory without a promise. */
export function answer(
  parts: ApiHandlerParts,
  world: WorldParts,
  request: SandboxRequest,
  url: URL,
  method: string,
  headers: Headers,
  onBodyText?: (text: string) => void,
): MaybePromise<Reply> {
  // Read with the rate-limit decision (BENCHMARKS.md, Redis).
  const listing = world.refusal === undefined ? planListing(parts, world, request, url, method) : undefined
  // Refusals included (D34).
  if (world.session !== undefined) headers.set(SESSION_HEADER, world.session)
  // Admits: the key, the quota and a preflight (D16, D17, D19).
  let admission: MaybePromise<Admission | Reply>
  try {
    admission = admit(parts, world, request, url, method, headers, listing)
  } catch (error) {
    world.settle?.(false)
    throw error
  }
  const passage = { parts, world, request, url, method, headers, listing, onBodyText }
  return admission instanceof Promise
    ? admission.then(
        (admitted) => serveAdmitted(admitted, passage),
        (error: unknown) => {
          world.settle?.(false)
          throw error
        },
      )
    : serveAdmitted(admission, passage)
}

/** Holds a request on its way through the steps. */
interface Passage {
  readonly parts: ApiHandlerParts
  readonly world: WorldParts
  readonly request: SandboxRequest
  readonly url: URL
  readonly method: string
  readonly headers: Headers
  readonly listing: PlannedListing | undefined
  readonly onBodyText: ((text: string) => void) | undefined
}

/** Holds an admitted request on its way, with what the steps found. */
interface Admitted extends Passage {
  readonly admitted: Admission
  readonly resolved: Resolution
  shaped?: Shaped | undefined
  input?: OperationInput
}

/** Serves an admitted request: finds its operation, applies `Prefer`, then the key's scenario. */
function serveAdmitted(admitted: Admission | Reply, passage: Passage): MaybePromise<Reply> {
  const { parts, world, request, method, headers } = passage
  world.settle?.(!('status' in admitted))
  if ('status' in admitted) return admitted
  // A session the request names that cannot be served: 400 or 501 (D34).
  if (world.refusal !== undefined) throw world.refusal
  // The operation, or why there is none: 501, 404, 405, 410 (D10, D11, D18).
  const resolved = passage.listing?.resolution ?? resolve(parts, world, admitted, method)
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
  return andThen(shaping, injectFault, { ...passage, admitted, resolved })
}

/** Injects the operation's fault: after the rate limit, so a failed request still spent quota. */
function injectFault(shaped: Shaped | undefined, passage: Admitted): MaybePromise<Reply> {
  passage.shaped = shaped
  return andThen(passage.world.faults.inject(passage.resolved.info.operationId, passage.headers), readTheInput, passage)
}

/** Reads the input, valid against the contract, or throws a 400 naming the field (D3, D9). */
function readTheInput(_: void, passage: Admitted): MaybePromise<Reply> {
  const { parts, request, url, admitted, resolved, listing, onBodyText } = passage
  const input =
    listing === undefined ? readInput(parts, request, url, admitted.apiPath, resolved, onBodyText) : inputOf(listing)
  return andThen(input, waitForStore, passage)
}

/** Waits for a seeding or a reset that runs, then runs the operation. */
function waitForStore(input: OperationInput, passage: Admitted): MaybePromise<Reply> {
  passage.input = input
  return andThen(passage.world.store.pending(), runOperation, passage)
}

/** Runs the operation, or reads nothing for a scenario's `empty`. */
function runOperation(_: void, passage: Admitted): MaybePromise<Reply> {
  const { shaped, resolved, admitted, headers } = passage
  const input = passage.input!
  // `empty`: a read lists or finds nothing, a write works (D29).
  const effect = shaped?.empty === true ? effectOf(resolved.info.operationId) : undefined
  if (effect !== undefined && 'reads' in effect) {
    if (effect.reads === 'item') throw emptyRead(input.params)
    return { status: 200, headers, body: [] }
  }
  return andThen(admitted.listed ?? resolved.operation.handle(input), reply, passage)
}

/** Gives the operation's result with the exchange's headers. */
function reply({ status, body }: OperationResult, { headers }: Admitted): Reply {
  return { status, headers, body }
}

/** Gives a planned listing's input, or throws its refusal as the input step would. */
function inputOf({ read }: PlannedListing): OperationInput {
  if ('refusal' in read) throw read.refusal
  return read.input
}
