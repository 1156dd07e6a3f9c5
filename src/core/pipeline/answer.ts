import type { Reply } from '../http/reply.js'
import { admit } from './admit.js'
import { planListing } from './plan-listing.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { resolve } from './resolve.js'

/**
 * The request pipeline, the whole of it, in order: every request under the API's scope takes these
 * steps, so every answer, refusals included, carries the same headers. A step refuses by throwing
 * `HttpError`, which the handler turns into an Error body.
 */
export async function answer(parts: ApiHandlerParts, request: Request, url: URL, method: string, headers: Headers): Promise<Reply> {
  // With a state that reads a page of pets with the rate-limit decision, one round trip instead of
  // two (BENCHMARKS.md, the Redis section), a plain listing's input is read ahead; a request it
  // cannot plan is refused, if at all, by the steps below, after the decision.
  const listing = parts.rateLimiter.takeThenList === undefined ? undefined : await planListing(parts, request, url, method)
  // CORS and deprecation headers, the rate limit, the API's scope and the key (D16, D17); a
  // preflight is answered here (D19).
  const admission = admit(parts, request, url, method, headers, listing)
  const admitted = admission instanceof Promise ? await admission : admission
  if ('status' in admitted) return admitted
  // The operation, or why there is none: 501, 404, 405, 410 (D10, D11, D18).
  const resolved = resolve(parts, admitted, method)
  // Faults hit requests a healthy server would serve: after auth and the rate limit (a failed
  // request still spent quota, as at a real gateway), before the body is read.
  await parts.faults.inject(resolved.info.operationId, headers)
  // The input, valid against the contract, or 400 naming the field (D3, D9).
  const input = admitted.listed?.input ?? (await readInput(parts, request, url, admitted.apiPath, resolved))
  // A request made while the store is seeded or reset waits for it.
  await parts.ready()
  const { status, body } = admitted.listed?.result ?? (await resolved.operation.handle(input))
  return { status, headers, body }
}
