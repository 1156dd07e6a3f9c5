import type { SandboxRequest } from '../http/sandbox-request.js'
import type { HttpHandler } from 'msw'
import { FAULT_HEADER } from '../faults/create-fault-injector.js'
import { SCENARIO_HEADER } from '../scenarios/create-scenarios.js'
import { createBaggageReader, type RequestedSession, requestedSession } from '../sessions/session-name.js'
import { forcedByPrefer } from '../scenarios/forced-status.js'
import type { ApiHandlerParts } from './api-handler-parts.js'
import { answer } from './answer.js'
import { mayAdmit } from './admit.js'
import type { Ending, Exchange } from './answer-tail.js'
import { ClaimingHandler } from './claiming-handler.js'
import { parseBearer } from '../auth/create-key-ring.js'
import { HttpError } from '../errors/http-error.js'
import { SESSION_HEADER } from '../sessions/session-name.js'
import { type MaybePromise, settleWith } from '../state/maybe-promise.js'
import type { BoundKey } from '../auth/create-bound-keys.js'

export type { ApiHandlerParts } from './api-handler-parts.js'

/** Creates the sandbox as one msw handler: the 404/405/501 fallbacks need the policies too. */
export function createApiHandler(parts: ApiHandlerParts): HttpHandler {
  const fromBaggage = createBaggageReader()
  return new ClaimingHandler({
    claims: (url) => parts.scope.claims(url),
    answer: (request, url, exchange) => handleRequest(parts, fromBaggage, request, url, exchange),
    tail: parts.tail,
    logging: 'listed',
  })
}

function handleRequest(
  parts: ApiHandlerParts,
  fromBaggage: (baggage: string) => RequestedSession | undefined,
  request: SandboxRequest,
  url: URL,
  exchange: Exchange,
): MaybePromise<Ending> {
  // The bound key's session (D46), the named one (D34, D43), or the default.
  const named = requestedSession((name) => request.headers.get(name), fromBaggage)
  const token = parseBearer(request.headers.get('authorization'))
  const bound = token === undefined ? undefined : parts.boundKeys.known(token)
  if (bound === undefined && token !== undefined && parts.boundKeys.ask !== undefined && !parts.keyRing.find(token))
    return parts.boundKeys.ask(token).then((asked) => answerIn(parts, request, url, exchange, named, asked))
  return answerIn(parts, request, url, exchange, named, bound)
}

/** Answers in the bound key's world, the named one or the default, noting the session and what shaped the answer. */
function answerIn(
  parts: ApiHandlerParts,
  request: SandboxRequest,
  url: URL,
  exchange: Exchange,
  named: RequestedSession | undefined,
  bound: BoundKey | undefined,
): MaybePromise<Ending> {
  const world =
    bound !== undefined && mayAdmit(parts, request, url, bound)
      ? parts.worlds.bound(bound, named)
      : named === undefined || !mayAdmit(parts, request, url)
        ? parts.worlds.default
        : parts.worlds.named(named)
  exchange.time = world.clock.now()
  exchange.notes.session = world.session
  const headers = exchange.headers
  // An Error body's too.
  const note = () => {
    exchange.notes.fault = headers.get(FAULT_HEADER) ?? undefined
    exchange.notes.scenario = headers.get(SCENARIO_HEADER) ?? undefined
    exchange.notes.forced = forcedByPrefer(headers)
  }
  return settleWith(
    () =>
      answer(
        parts,
        world,
        request,
        url,
        request.method.toUpperCase(),
        headers,
        (text) => (exchange.requestBody = text),
      ),
    (reply): Ending => {
      note()
      return { kind: 'reply', reply }
    },
    (error) => {
      // D46.
      if (bound !== undefined && error instanceof HttpError && error.status === 401) {
        headers.delete(SESSION_HEADER)
        exchange.notes.session = undefined
      }
      note()
      throw error
    },
  )
}
