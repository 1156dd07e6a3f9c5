import type { SandboxRequest } from '../http/sandbox-request.js'
import type { HttpHandler } from 'msw'
import { FAULT_HEADER } from '../faults/create-fault-injector.js'
import { SCENARIO_HEADER } from '../scenarios/create-scenarios.js'
import { requestedSession } from '../sessions/session-name.js'
import { forcedByPrefer } from '../scenarios/forced-status.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import { answer } from './answer.js'
import { mayAdmit } from './admit.js'
import type { Ending, Exchange } from './answer-tail.js'
import { ClaimingHandler } from './claiming-handler.js'
import { parseBearer } from '../auth/create-key-ring.js'
import { HttpError } from '../errors/http-error.js'
import { SESSION_HEADER } from '../sessions/session-name.js'

export type { ApiHandlerParts } from './api-handler-parts.js'

/**
 * The sandbox as one msw handler: `answer` runs the pipeline, and the one tail (answer-tail.ts)
 * builds the Response and logs the request. One handler instead of one per operation: the
 * 404/405/501 fallbacks need the policies too, and msw tries a single predicate per request
 * instead of a list of path patterns. It is a `ClaimingHandler`, which parses the URL once.
 */
export function createApiHandler(parts: ApiHandlerParts): HttpHandler {
  return new ClaimingHandler({
    claims: (url) => parts.scope.claims(url),
    answer: (request, url, exchange) => handleRequest(parts, request, url, exchange),
    tail: parts.tail,
    logging: 'listed',
  })
}

async function handleRequest(
  parts: ApiHandlerParts,
  request: SandboxRequest,
  url: URL,
  exchange: Exchange,
): Promise<Ending> {
  // The world the request is in, once: its bound key's session (D46), the session it names (D34,
  // D43), or the default one's when it names none or admission must refuse it.
  const named = requestedSession((name) => request.headers.get(name))
  const token = parseBearer(request.headers.get('authorization'))
  let bound = token === undefined ? undefined : parts.boundKeys.known(token)
  // A shared state is asked only of a token that is no key in force: no round trip for a key this process knows.
  if (bound === undefined && token !== undefined && parts.boundKeys.ask !== undefined && !parts.keyRing.find(token))
    bound = await parts.boundKeys.ask(token)
  const world =
    bound !== undefined && mayAdmit(parts, request, url, bound)
      ? parts.worlds.bound(bound, named)
      : named === undefined || !mayAdmit(parts, request, url)
        ? parts.worlds.default
        : parts.worlds.named(named)
  exchange.time = world.clock.now()
  exchange.notes.session = world.session
  const headers = exchange.headers
  try {
    return {
      kind: 'reply',
      reply: await answer(
        parts,
        world,
        request,
        url,
        request.method.toUpperCase(),
        headers,
        (text) => (exchange.requestBody = text),
      ),
    }
  } catch (error) {
    // A bound key whose session went, as a shared state's decision found it: answered as in memory,
    // in no session (D46).
    if (bound !== undefined && error instanceof HttpError && error.status === 401) {
      headers.delete(SESSION_HEADER)
      exchange.notes.session = undefined
    }
    throw error
  } finally {
    // What the policies said of the answer, an Error body's included.
    exchange.notes.fault = headers.get(FAULT_HEADER) ?? undefined
    exchange.notes.scenario = headers.get(SCENARIO_HEADER) ?? undefined
    exchange.notes.forced = forcedByPrefer(headers)
  }
}
