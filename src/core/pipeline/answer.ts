import type { Reply } from '../http/reply.js'
import { admit } from './admit.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { resolve } from './resolve.js'
import { emptyRead } from '../scenarios/create-scenarios.js'

/**
 * The request pipeline, in order: every request under the API's scope takes these steps, so every
 * answer, refusals included, carries the same headers. A step refuses by throwing `HttpError`.
 */
export async function answer(parts: ApiHandlerParts, request: Request, url: URL, method: string, headers: Headers): Promise<Reply> {
  const admission = admit(parts, request, url, method, headers)
  const admitted = admission instanceof Promise ? await admission : admission
  if ('status' in admitted) return admitted
  const resolved = resolve(parts, admitted, method)
  // A key's scenario, like faults, hits requests a healthy server would serve: after auth and the
  // rate limit, before the body is read (D25).
  const shaping = parts.scenarios.shape(admitted.key, resolved.info.operationId, headers, parts.clock.now, admitted.deprecation)
  const shaped = shaping === undefined ? undefined : await shaping
  // Faults hit requests a healthy server would serve: after auth and the rate limit (a failed
  // request still spent quota, as at a real gateway), before the body is read.
  await parts.faults.inject(resolved.info.operationId, headers)
  const { prefetched } = admitted
  const input = prefetched?.input ?? (await readInput(parts, request, url, admitted.apiPath, resolved))
  await parts.ready()
  if (shaped?.empty === true && method !== 'POST') {
    if (resolved.operation.listing === undefined) throw emptyRead(input.params)
    return { status: 200, headers, body: [] }
  }
  const { status, body } = prefetched?.result ?? (await resolved.operation.handle(input))
  return { status, headers, body }
}
