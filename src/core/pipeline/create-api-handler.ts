import type { HttpHandler } from 'msw'
import { createMasker } from '../auth/create-masker.js'
import { errorReply } from '../http/error-reply.js'
import { HttpError } from '../errors/http-error.js'
import { DroppedConnection, FAULT_HEADER } from '../faults/create-fault-injector.js'
import { toResponseAndText } from '../http/to-response.js'
import { SCENARIO_HEADER } from '../scenarios/create-scenarios.js'
import { SESSION_HEADER } from '../sessions/session-name.js'
import { forcedByPrefer } from '../scenarios/forced-status.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import { answer } from './answer.js'
import { ClaimingHandler } from './claiming-handler.js'

export type { ApiHandlerParts } from './api-handler-parts.js'

/**
 * The sandbox as one msw handler: `answer` runs the pipeline, and this edge logs the request and
 * builds the Response. One handler instead of one per operation: the 404/405/501 fallbacks need
 * the policies too, and msw tries a single predicate per request instead of a list of path
 * patterns. It is a `ClaimingHandler`, which parses the URL once.
 */
export function createApiHandler(parts: ApiHandlerParts): HttpHandler {
  return new ClaimingHandler(
    (url) => parts.scope.claims(url),
    (request, url) => handleRequest(parts, request, url),
  )
}

async function handleRequest(parts: ApiHandlerParts, request: Request, url: URL): Promise<Response> {
  const started = performance.now()
  // The world the request is in, once: its session's (D34), or the default one's without the header.
  const named = request.headers.get(SESSION_HEADER)
  const world = named === null ? parts.worlds.default : parts.worlds.named(named)
  const time = world.clock.now()
  const headers = new Headers()
  const method = request.method.toUpperCase()
  let requestBody: string | undefined
  const reply = await answer(parts, world, request, url, method, headers, (text) => (requestBody = text)).catch((error: unknown) =>
    // An injected dropped connection: in-process fetch rejects with a TypeError, and the HTTP
    // adapter destroys the socket.
    error instanceof DroppedConnection ? undefined : errorReply(withKeysRedacted(error, parts), headers, parts.onUnexpectedError),
  )
  const durationMs = performance.now() - started
  // The body's JSON text is made once: the Response and the request log's exchange share it.
  const { response, text } = reply === undefined ? { response: Response.error(), text: undefined } : toResponseAndText(reply, request)
  // The log keeps the facts of the answer, the two header lists and the body texts, never the
  // request, the response or a closure over this scope (Answered says why).
  parts.requestLog.record(
    {
      time,
      method,
      target: url.pathname + url.search,
      status: reply?.status ?? 0,
      durationMs,
      requestHeaders: request.headers,
      responseHeaders: reply?.headers,
      fault: reply === undefined ? 'drop' : (headers.get(FAULT_HEADER) ?? undefined),
      scenario: headers.get(SCENARIO_HEADER) ?? undefined,
      session: world.session,
      forced: forcedByPrefer(headers),
    },
    { bodies: { origin: url.origin, requestBody, responseBody: text } },
  )
  return response
}

/** Messages echo paths and values the client sent; a key or the admin token among them is masked (D35). */
function withKeysRedacted(error: unknown, parts: ApiHandlerParts): unknown {
  if (!(error instanceof HttpError)) return error
  const message = createMasker(parts.secrets()).text(error.message)
  return message === error.message ? error : new HttpError(error.status, error.code, message, { ...error.headers })
}
