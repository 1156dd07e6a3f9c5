import type { HttpHandler } from 'msw'
import type { SandboxClock } from '../clock/create-clock.js'
import type { ApiScope } from '../contract/create-api-scope.js'
import type { Router } from '../contract/create-router.js'
import { ApiError } from '../errors/api-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { toErrorResponse } from '../errors/to-error-response.js'
import { CLIENT_ADDRESS_HEADER, LOCAL_CLIENT } from '../http/client-address.js'
import { DroppedConnection, FAULT_HEADER, type FaultInjector } from '../faults/create-fault-injector.js'
import type { KeyRing } from '../auth/create-key-ring.js'
import { redactKeys } from '../auth/redact-keys.js'
import { PLANS } from '../auth/plans.js'
import type { Cors } from '../http/create-cors.js'
import type { Deprecations } from '../http/create-deprecations.js'
import type { RateDecision, RateLimiter } from '../rate-limit/create-rate-limiter.js'
import type { RequestValidator } from '../validation/create-request-validator.js'
import type { RequestLog } from '../request-log/create-request-log.js'
import { parseBearer } from '../auth/parse-bearer.js'
import { readJsonBody } from '../validation/read-json-body.js'
import { queryOf } from '../http/query-of.js'
import type { Operation } from '../operations/operation.js'
import { ClaimingHandler } from './claiming-handler.js'

export interface ApiHandlerParts {
  scope: ApiScope
  router: Router
  operations: Readonly<Record<string, Operation>>
  keyRing: KeyRing
  rateLimiter: RateLimiter
  validator: RequestValidator
  deprecations: Deprecations
  cors: Cors
  clock: SandboxClock
  faults: FaultInjector
  requestLog: RequestLog
  /** Waits for the store to be seeded (or re-seeded after `reset()`). */
  ready: () => Promise<void>
  onUnexpectedError: (error: unknown) => void
}

// D11: areas the spec says exist without saying how they behave.
const UNSPECIFIED_AREAS = ['/store', '/categories']

/**
 * The sandbox as one msw handler. Every request under the API's prefix runs the same policies in
 * the same order, so every answer, errors included, carries the same headers:
 *
 *   CORS -> deprecation headers -> rate limit (per key, or per address without a valid key)
 *   -> auth -> routing (404/405/501) -> sunset (410) -> injected faults -> validation -> operation
 *
 * One handler instead of one per operation: the 404/405/501 fallbacks need the policies too, and
 * msw tries a single predicate per request instead of a list of path patterns. It is a
 * `ClaimingHandler`, which parses the URL once and skips the parts of msw's `run` it never uses.
 */
export function createApiHandler(parts: ApiHandlerParts): HttpHandler {
  return new ClaimingHandler(
    (url) => parts.scope.claims(url),
    (request, url) => handleRequest(parts, request, url),
  )
}

async function handleRequest(parts: ApiHandlerParts, request: Request, url: URL): Promise<Response> {
  const started = performance.now()
  const headers = new Headers()
  const method = request.method.toUpperCase()
  const response = await answer(parts, request, url, method, headers).catch((error: unknown) =>
    // An injected dropped connection: in-process fetch rejects with a TypeError, and the HTTP
    // adapter destroys the socket.
    error instanceof DroppedConnection ? Response.error() : toErrorResponse(withKeysRedacted(error, parts.keyRing), headers, parts.onUnexpectedError, request),
  )
  parts.requestLog.record({
    time: parts.clock.now(),
    method,
    url,
    status: response.status,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    authorization: request.headers.get('authorization'),
    ...(response.type === 'error' ? { fault: 'drop' } : headers.has(FAULT_HEADER) ? { fault: headers.get(FAULT_HEADER)! } : {}),
  })
  if (response.type === 'error') return response
  // HEAD is answered like GET, without the body (RFC 9110 9.3.2).
  return method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response
}

async function answer(parts: ApiHandlerParts, request: Request, url: URL, method: string, headers: Headers): Promise<Response> {
  parts.cors.apply(request, headers)
  const apiPath = parts.scope.apiPath(url)
  const route = apiPath === undefined ? undefined : parts.router.match(method === 'HEAD' ? 'GET' : method, apiPath)

  const deprecation = route?.kind === 'operation' ? parts.deprecations.of(route.operation.operationId) : undefined
  if (deprecation !== undefined) for (const [name, value] of deprecation.headers) headers.set(name, value)

  const token = parseBearer(request.headers.get('authorization'))
  const apiKey = token === undefined ? undefined : parts.keyRing.find(token)
  const bucket = apiKey ? `key:${apiKey.key}` : `address:${request.headers.get(CLIENT_ADDRESS_HEADER) ?? LOCAL_CLIENT}`
  const limits = apiKey ?? PLANS.free

  // OPTIONS is no operation of the document, so a known path reports it as not allowed. A
  // preflight needs no key and spends no quota, but still says where the caller's quota stands.
  if (method === 'OPTIONS' && route?.kind === 'method-not-allowed') {
    setRateLimitHeaders(headers, parts.rateLimiter.peek(bucket, limits))
    return parts.cors.preflight(request, headers, withHead(route.allow).concat('OPTIONS'))
  }

  const decision = parts.rateLimiter.take(bucket, limits)
  setRateLimitHeaders(headers, decision)
  if (decision.outcome !== 'allowed') throw refusal(decision)

  if (apiPath === undefined) {
    throw new ApiError(404, ErrorCode.notFound, `${url.pathname} is not part of the API; it is served under ${parts.scope.prefix}`)
  }
  if (apiKey === undefined) {
    throw new ApiError(
      401,
      ErrorCode.unauthorized,
      token === undefined
        ? 'An API key is required: send Authorization: Bearer <key>'
        : 'The API key is not valid',
      { 'www-authenticate': token === undefined ? 'Bearer' : 'Bearer error="invalid_token"' },
    )
  }
  if (UNSPECIFIED_AREAS.some((area) => apiPath === area || apiPath.startsWith(`${area}/`))) {
    throw new ApiError(501, ErrorCode.notImplemented, `${parts.scope.prefix}${apiPath}: this area exists, but its behaviour is not yet specified`)
  }
  if (route === undefined || route.kind === 'not-found') {
    throw new ApiError(404, ErrorCode.notFound, `no resource at ${parts.scope.prefix}${apiPath}`)
  }
  if (route.kind === 'method-not-allowed') {
    const allow = withHead(route.allow).concat('OPTIONS').join(', ')
    throw new ApiError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${parts.scope.prefix}${apiPath}; allowed: ${allow}`, { allow })
  }
  if (deprecation !== undefined && parts.clock.now() >= deprecation.sunset) {
    throw new ApiError(
      410,
      ErrorCode.gone,
      `${route.operation.method} ${parts.scope.prefix}${route.operation.path} was removed on ${new Date(deprecation.sunset).toUTCString()}; use ${deprecation.successor} instead`,
    )
  }

  const operation = parts.operations[route.operation.operationId]
  if (operation === undefined) throw new Error(`no implementation for ${route.operation.operationId}`)
  // Faults hit requests that a healthy server would serve: after auth and the rate limit (a
  // failed request still spent quota, as at a real gateway), before the body is even read.
  await parts.faults.inject(route.operation.operationId, headers)
  const params = decodeParams(route.params)
  const path = decodeComponent(apiPath, 'path')
  const body = operation.readsBody ? await readJsonBody(request) : undefined
  const query = queryOf(url)
  parts.validator.validate(route.operation.operationId, {
    path,
    query,
    ...(body === undefined ? {} : { body }),
  })
  await parts.ready()
  return operation.handle({ query, params, body, headers, request })
}

/** Messages echo paths and values the client sent; a key among them is masked (security basics). */
function withKeysRedacted(error: unknown, keyRing: KeyRing): unknown {
  if (!(error instanceof ApiError)) return error
  const message = redactKeys(error.message, keyRing.keys.map((apiKey) => apiKey.key))
  return message === error.message ? error : new ApiError(error.status, error.code, message, { ...error.headers })
}

function refusal(decision: RateDecision): ApiError {
  const retryAfter = { 'retry-after': String(decision.retryAfter) }
  return decision.outcome === 'temporarily_banned'
    ? new ApiError(429, ErrorCode.temporarilyBanned, `This client is temporarily banned after repeated requests over its rate limit; retry in ${decision.retryAfter} s`, retryAfter)
    : new ApiError(429, ErrorCode.rateLimited, `Rate limit of ${decision.limit} requests exceeded; retry in ${decision.retryAfter} s`, retryAfter)
}

function setRateLimitHeaders(headers: Headers, decision: RateDecision): void {
  headers.set('x-ratelimit-limit', String(decision.limit))
  headers.set('x-ratelimit-remaining', String(decision.remaining))
  headers.set('x-ratelimit-reset', String(decision.reset))
}

function withHead(methods: readonly string[]): string[] {
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : [...methods]
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) decoded[name] = decodeComponent(value, name)
  return decoded
}

function decodeComponent(value: string, name: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    throw new ApiError(400, ErrorCode.invalidRequest, `${name} is not valid percent-encoded UTF-8`)
  }
}

