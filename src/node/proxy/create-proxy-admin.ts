import { createAdminGate } from '../../core/admin/create-admin-gate.js'
import { adminOpenapiDocument } from '../../core/contract/admin-openapi-document.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import { queryOf } from '../../core/http/query-of.js'
import { createRequestValidator } from '../../core/validation/create-request-validator.js'
import { refusalAnswer, type WrittenAnswer } from '../server/refusal-answer.js'
import type { ProxyRequestLog } from './create-proxy-request-log.js'
import type { ProxyStats } from './create-proxy-stats.js'

/** Where the proxy shows its counters, beside the sandbox's own admin API (fixtures/admin-openapi.yaml). */
export const PROXY_ADMIN_PATH = '/__sandbox/proxy'
/** The request log: the proxy answers it from its own log, which holds what the upstream answered too. */
export const PROXY_REQUESTS_PATH = '/__sandbox/requests'

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
  const gate = createAdminGate({ token, now })

  function reply({ method, url, presented, clientAddress }: ProxyAdminRequest): unknown {
    gate.admit(presented, clientAddress)
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
        if (error instanceof HttpError) return refusalAnswer(error, { 'cache-control': 'no-store' })
        throw error
      }
    },
  }
}

export type ProxyAdmin = ReturnType<typeof createProxyAdmin>
