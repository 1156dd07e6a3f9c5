import type { HttpHandler } from 'msw'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import { errorReply } from '../http/error-reply.js'
import type { Reply } from '../http/reply.js'
import { toResponse } from '../http/to-response.js'
import { ClaimingHandler } from '../pipeline/claiming-handler.js'
import type { Readiness } from './create-readiness.js'

/** The probes' paths, outside the API's `/v1` and the admin API's `/__sandbox`. */
export const PROBE_PATHS = ['/healthz', '/readyz'] as const

export interface ProbeHandlerOptions {
  readiness: () => Readiness
  /** Only this origin's probes are claimed; any origin when undefined. */
  origin: string | undefined
  onUnexpectedError: (error: unknown) => void
}

/**
 * `GET /healthz` (the process serves) and `GET /readyz` (the sandbox can serve; 503 otherwise),
 * for load balancers, container probes and test runners that wait for a server: no key, no quota
 * spent, described in fixtures/admin-openapi.yaml (docs/running-for-a-team.md#probes).
 *
 * @example
 * const reply = await getResponse([createProbeHandler({ readiness, origin: undefined, onUnexpectedError })], new Request('http://x/readyz'))
 */
export function createProbeHandler({ readiness, origin, onUnexpectedError }: ProbeHandlerOptions): HttpHandler {
  function answer(path: string, method: string, headers: Headers): Reply {
    if (method !== 'GET') throw new HttpError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${path}; allowed: GET`, { allow: 'GET' })
    if (path === '/healthz') return { status: 200, headers, body: { status: 'ok' } }
    const current = readiness()
    if (!current.ready) {
      const reasons = current.checks.filter((check) => !check.ready).map((check) => `${check.name}: ${check.reason}`)
      throw new HttpError(503, ErrorCode.serviceUnavailable, `Not ready (${reasons.join('; ')})`, { 'retry-after': '1' })
    }
    return { status: 200, headers, body: { status: 'ready', checks: current.checks } }
  }

  return new ClaimingHandler(
    (url) => (origin === undefined || url.origin === origin) && (PROBE_PATHS as readonly string[]).includes(url.pathname),
    async (request, url) => {
      const headers = new Headers({ 'cache-control': 'no-store' })
      let reply: Reply
      try {
        reply = answer(url.pathname, request.method.toUpperCase(), headers)
      } catch (error) {
        reply = errorReply(error, headers, onUnexpectedError)
      }
      return toResponse(reply, request)
    },
  )
}
