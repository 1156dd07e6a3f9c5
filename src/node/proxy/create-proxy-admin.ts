import { constantTimeEqual } from '../../core/auth/constant-time-equal.js'
import { createAttemptLimiter } from '../../core/admin/create-attempt-limiter.js'
import { adminOpenapiDocument } from '../../core/contract/admin-openapi-document.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import { queryOf } from '../../core/http/query-of.js'
import { createRequestValidator } from '../../core/validation/create-request-validator.js'
import type { WrittenAnswer } from './answer-from-sandbox.js'
import type { ProxyRequestLog } from './create-proxy-request-log.js'
import type { ProxyStats } from './create-proxy-stats.js'
import { errorAnswer } from './error-answer.js'

/** Where the proxy shows its counters, beside the sandbox's own admin API (fixtures/admin-openapi.yaml). */
export const PROXY_ADMIN_PATH = '/__sandbox/proxy'
/** The request log: the proxy answers it from its own log, which holds what the upstream answered too. */
export const PROXY_REQUESTS_PATH = '/__sandbox/requests'

// As many wrong admin tokens per client address and minute as the sandbox's admin API allows
// (docs/running-for-a-team.md#admin-api): these paths must not be a way around its limit.
const WRONG_TOKENS_PER_MINUTE = 10

export interface ProxyAdminOptions {
  token: string
  stats: ProxyStats
  requests: ProxyRequestLog
  /** The proxy's clock, which times the limit on wrong tokens. */
  now: () => number
}

export interface ProxyAdminRequest {
  method: string
  url: URL
  /** The bearer token presented, if any. */
  presented: string | undefined
  clientAddress: string
}

/**
 * The admin paths the proxy answers itself, behind the admin token like the rest of the admin API,
 * with its Error bodies and its validation of `limit` (fixtures/admin-openapi.yaml): `answer`
 * gives undefined for every other path, which the sandbox answers.
 */
export function createProxyAdmin({ token, stats, requests, now }: ProxyAdminOptions) {
  const validator = createRequestValidator(adminOpenapiDocument)
  const wrongTokens = createAttemptLimiter({ limit: WRONG_TOKENS_PER_MINUTE, windowMs: 60_000, now })

  function reply({ method, url, presented, clientAddress }: ProxyAdminRequest): unknown {
    if (presented !== undefined && !constantTimeEqual(presented, token)) {
      const decision = wrongTokens.blocked(clientAddress)
      if (!decision.allowed) {
        throw new HttpError(429, ErrorCode.rateLimited, `Too many wrong admin tokens from this address; retry in ${decision.retryAfter} s`, {
          'retry-after': String(decision.retryAfter),
        })
      }
      wrongTokens.fail(clientAddress)
    }
    if (presented === undefined || !constantTimeEqual(presented, token)) {
      throw new HttpError(
        401,
        ErrorCode.unauthorized,
        presented === undefined
          ? 'The admin API needs Authorization: Bearer <admin token>'
          : 'The admin token is not valid (API keys do not open the admin API)',
        { 'www-authenticate': 'Bearer realm="petstore-sandbox admin"' },
      )
    }
    if (method !== 'GET') throw new HttpError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${url.pathname}; allowed: GET`, { allow: 'GET' })
    if (url.pathname === PROXY_ADMIN_PATH) return stats.snapshot()
    const query = queryOf(url)
    validator.validate('listRequests', { path: '/requests', query })
    return { requests: requests.last(typeof query.limit === 'string' ? Number(query.limit) : undefined) }
  }

  return {
    answer(request: ProxyAdminRequest): WrittenAnswer | undefined {
      if (request.url.pathname !== PROXY_ADMIN_PATH && request.url.pathname !== PROXY_REQUESTS_PATH) return undefined
      try {
        const body = Buffer.from(JSON.stringify(reply(request)))
        return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body }
      } catch (error) {
        if (error instanceof HttpError) return errorAnswer(error)
        throw error
      }
    },
  }
}

export type ProxyAdmin = ReturnType<typeof createProxyAdmin>
