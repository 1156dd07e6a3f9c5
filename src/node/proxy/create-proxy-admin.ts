import type { AdminSessionControls } from '../../core/admin/admin-controls.js'
import type { AdminGate } from '../../core/admin/create-admin-gate.js'
import { exportSelection, harAnswer } from '../../core/admin/create-admin-operations.js'
import type { RequestLog } from '../../core/request-log/create-request-log.js'
import { adminOpenapiDocument } from '../../core/contract/admin-openapi-document.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import { queryOf } from '../../core/http/query-of.js'
import { createRequestValidator } from '../../core/validation/create-request-validator.js'
import { refusalAnswer, type WrittenAnswer } from '../server/refusal-answer.js'
import type { ProxyStats } from './create-proxy-stats.js'

/** Where the proxy shows its counters, beside the sandbox's own admin API (fixtures/admin-openapi.yaml). */
export const PROXY_ADMIN_PATH = '/__sandbox/proxy'
/** The request log, and its exchanges as a HAR: the proxy answers them from its own log, which holds what the upstream answered too. */
export const PROXY_REQUESTS_PATH = '/__sandbox/requests'
const PROXY_HAR_PATH = '/__sandbox/requests.har'
const OWN_PATHS = new Set([PROXY_ADMIN_PATH, PROXY_REQUESTS_PATH, PROXY_HAR_PATH])

export interface ProxyAdminOptions {
  /** The process's one admin gate (create-admin-gate.ts). */
  gate: AdminGate
  stats: ProxyStats
  requests: Pick<RequestLog, 'select'>
  /** The proxy's log as a HAR, masked as the sandbox's is (sandbox-har.ts). */
  har: AdminSessionControls['har']
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
 * with its Error bodies and its validation of the query (fixtures/admin-openapi.yaml): `answer`
 * gives undefined for every other path, which the sandbox answers.
 */
export function createProxyAdmin({ gate, stats, requests, har }: ProxyAdminOptions) {
  const validator = createRequestValidator(adminOpenapiDocument)

  function reply({ method, url, presented, clientAddress }: ProxyAdminRequest): unknown {
    gate.admit(presented, clientAddress)
    if (method !== 'GET') throw new HttpError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${url.pathname}; allowed: GET`, { allow: 'GET' })
    if (url.pathname === PROXY_ADMIN_PATH) return stats.snapshot()
    const query = queryOf(url)
    if (url.pathname === PROXY_HAR_PATH) {
      validator.validate('getHar', { path: '/requests.har', query })
      return harAnswer(har, query)
    }
    validator.validate('listRequests', { path: '/requests', query })
    return { requests: requests.select(exportSelection(query)).map((exchange) => exchange.entry) }
  }

  return {
    answer(request: ProxyAdminRequest): WrittenAnswer | undefined {
      if (!OWN_PATHS.has(request.url.pathname)) return undefined
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
