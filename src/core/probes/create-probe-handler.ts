import type { HttpHandler } from 'msw'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { Reply } from '../http/reply.js'
import type { AnswerTail } from '../pipeline/answer-tail.js'
import { ClaimingHandler } from '../pipeline/claiming-handler.js'
import type { Readiness } from './create-readiness.js'

export const PROBE_PATHS = ['/healthz', '/readyz'] as const

export interface ProbeHandlerOptions {
  readiness: () => Readiness
  /** Claims only this origin's probes; any when undefined. */
  origin: string | undefined
  tail: AnswerTail
}

/** Creates `GET /healthz` and `GET /readyz`, without key or quota (docs/running-for-a-team.md#probes). */
export function createProbeHandler({ readiness, origin, tail }: ProbeHandlerOptions): HttpHandler {
  function answer(path: string, method: string, headers: Headers): Reply {
    if (method !== 'GET')
      throw new HttpError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${path}; allowed: GET`, {
        allow: 'GET',
      })
    if (path === '/healthz') return { status: 200, headers, body: { status: 'ok' } }
    const current = readiness()
    if (!current.ready) {
      const reasons = current.checks.filter((check) => !check.ready).map((check) => `${check.name}: ${check.reason}`)
      throw new HttpError(503, ErrorCode.serviceUnavailable, `Not ready (${reasons.join('; ')})`, {
        'retry-after': '1',
      })
    }
    return { status: 200, headers, body: { status: 'ready', checks: current.checks } }
  }

  // Logs nothing: load balancers ask every few seconds.
  return new ClaimingHandler({
    claims: (url) =>
      (origin === undefined || url.origin === origin) && (PROBE_PATHS as readonly string[]).includes(url.pathname),
    answer: async (request, url, exchange) => {
      exchange.headers.set('cache-control', 'no-store')
      return { kind: 'reply', reply: answer(url.pathname, request.method.toUpperCase(), exchange.headers) }
    },
    tail,
    logging: 'none',
  })
}
