import type { Reply } from '../http/reply.js'
import { admit } from './admit.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import { readInput } from './read-input.js'
import { resolve } from './resolve.js'
import { emptyRead } from '../scenarios/create-scenarios.js'
import { forcedError, preferredStatus } from '../scenarios/forced-status.js'

/**
 * The request pipeline, in order: every request under the API's scope takes these steps, so every
 * answer, refusals included, carries the same headers. A step refuses by throwing `HttpError`.
 */
export async function answer(parts: ApiHandlerParts, request: Request, url: URL, method: string, headers: Headers): Promise<Reply> {
  const admission = admit(parts, request, url, method, headers)
  const admitted = admission instanceof Promise ? await admission : admission
  if ('status' in admitted) return admitted
  const resolved = resolve(parts, admitted, method)
  const { operationId } = resolved.info
  // `Prefer: code=`, then a key's scenario, like faults, hit requests a healthy server would
  // serve: after auth and the rate limit (so they spend quota), before the body is read (D25, D26).
  const preferred = parts.prefer ? preferredStatus(request.headers.get('prefer'), operationId, parts.forcible.get(operationId)) : undefined
  if (preferred !== undefined) {
    headers.set('preference-applied', `code=${preferred}`)
    if (preferred >= 400) throw forcedError(preferred, `Prefer: code=${preferred}`, headers, parts.clock.now(), admitted.deprecation)
  }
  const shaping = preferred === undefined ? parts.scenarios.shape(admitted.key, operationId, headers, parts.clock.now, admitted.deprecation) : undefined
  const shaped = shaping === undefined ? undefined : await shaping
  // Faults hit requests a healthy server would serve: after auth and the rate limit (a failed
  // request still spent quota, as at a real gateway), before the body is read.
  await parts.faults.inject(operationId, headers)
  const { prefetched } = admitted
  const input = prefetched?.input ?? (await readInput(parts, request, url, admitted.apiPath, resolved))
  await parts.ready()
  if (shaped?.empty === true && method !== 'POST') {
    if (resolved.operation.listing === undefined) throw emptyRead(input.params)
    return { status: 200, headers, body: [] }
  }
  const { status, body } = prefetched?.result ?? (await resolved.operation.handle(input))
  const requestBody = (input as { bodyText?: string }).bodyText
  return { status, headers, body, ...(requestBody === undefined ? {} : { requestBody }) }
}
