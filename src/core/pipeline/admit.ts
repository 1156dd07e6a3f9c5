import type { SandboxRequest } from '../http/sandbox-request.js'
import type { ApiKey } from '../auth/key-config.js'
import { parseBearer } from '../auth/create-key-ring.js'
import type { BoundKey } from '../auth/create-bound-keys.js'
import { type Limits, PLANS } from '../auth/plans.js'
import { isAdminPath } from '../contract/admin-prefix.js'
import type { RouteMatch } from '../contract/create-router.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { Deprecation } from '../http/create-deprecations.js'
import { JsonText } from '../http/to-response.js'
import type { Reply } from '../http/reply.js'
import { listed } from '../operations/list-pets.js'
import { countedClient } from '../rate-limit/counted-client.js'
import { resetOf } from '../rate-limit/windows.js'
import { preferredStatus } from '../scenarios/forced-status.js'
import type { RateDecision } from '../state/rate-limit-backend.js'
import type { MaybePromise } from '../state/maybe-promise.js'
import type { Admission } from './admission.js'
import type { ApiHandlerParts, WorldParts } from './api-handler-parts.js'
import type { PlannedListing } from './plan-listing.js'
import { withHead } from './resolve.js'

/** Names the client's address (D16); the adapter overwrites it. */
export const CLIENT_ADDRESS_HEADER = 'x-sandbox-client-address'

const ADMIN_API_OFF =
  'the admin API is off: start the sandbox with --admin-token <token> (or PETSTORE_SANDBOX_ADMIN_TOKEN;' +
  ' adminToken in createSandbox) and send Authorization: Bearer <token>'

export const LOCAL_CLIENT = 'local'

/** Tells whether admission may let a request through (D34). */
export function mayAdmit(
  parts: Pick<ApiHandlerParts, 'scope' | 'keyRing'>,
  request: SandboxRequest,
  url: URL,
  bound?: BoundKey,
): boolean {
  if (request.method.toUpperCase() === 'OPTIONS' || parts.scope.apiPath(url) === undefined) return false
  if (bound !== undefined) return true
  const token = parseBearer(request.headers.get('authorization'))
  return token !== undefined && parts.keyRing.find(token) !== undefined
}

/** Admits a request: CORS, deprecation, the rate limit (D16), the key (D17). */
export function admit(
  parts: ApiHandlerParts,
  world: WorldParts,
  request: SandboxRequest,
  url: URL,
  method: string,
  headers: Headers,
  listing?: PlannedListing,
): MaybePromise<Admission | Reply> {
  const boundHere = (token: string) => {
    const bound = parts.boundKeys.known(token)
    return bound !== undefined && bound.session === world.session ? bound : undefined
  }
  parts.cors.apply(request, headers)
  // A planned listing matched them already.
  const apiPath = listing?.apiPath ?? parts.scope.apiPath(url)
  const route =
    listing?.route ??
    (apiPath === undefined ? undefined : parts.router.match(method === 'HEAD' ? 'GET' : method, apiPath))

  const deprecation = route?.kind === 'operation' ? parts.deprecations.of(route.operation.operationId) : undefined
  if (deprecation !== undefined) for (const [name, value] of deprecation.headers) headers.set(name, value)

  const token = parseBearer(request.headers.get('authorization'))
  const apiKey: ApiKey | undefined = token === undefined ? undefined : (parts.keyRing.find(token) ?? boundHere(token))
  const bucket = apiKey
    ? `key:${apiKey.key}`
    : `address:${countedClient(request.headers.get(CLIENT_ADDRESS_HEADER) ?? LOCAL_CLIENT)}`
  const limits = apiKey ?? PLANS.free
  // A key counts in its session's world; an address without one in the default session's (D34).
  const limiter = apiKey ? world.rateLimiter : parts.addressLimiter

  // A preflight is answered here, without a key and without spending quota (D19).
  if (method === 'OPTIONS' && apiPath !== undefined) {
    const allow = route?.kind === 'method-not-allowed' ? withHead(route.allow).concat('OPTIONS') : undefined
    const preflight = (decision: RateDecision) => {
      setRateLimitHeaders(headers, decision)
      return parts.cors.preflight(request, headers, allow)
    }
    const peeked = limiter.peek(bucket, limits)
    return peeked instanceof Promise
      ? peeked.then(preflight, unknownQuota(headers, limits, world.clock.now()))
      : preflight(peeked)
  }

  // Keeps the in-memory path free of promises.
  const admitted = (decided: RateDecision) =>
    afterDecision(parts, url, decided, headers, apiPath, route, deprecation, apiKey, token)
  const unknown = () => unknownQuota(headers, limits, world.clock.now())
  const scenario = apiKey === undefined ? undefined : world.scenarios.of(apiKey.key)
  if (
    scenario !== undefined &&
    route?.kind === 'operation' &&
    world.scenarios.sparesQuota(apiKey!.key, route.operation.operationId) &&
    !answersPreference(parts, request, route.operation.operationId)
  ) {
    // The scenario answers its 429 without spending the window (D29).
    const peeked = limiter.peek(bucket, limits)
    return peeked instanceof Promise ? peeked.then(admitted, unknown()) : admitted(peeked)
  }
  // A scenario may change the page (`empty`).
  const ahead =
    listing !== undefined && 'ahead' in listing.read && apiKey !== undefined && scenario === undefined
      ? listing.read.ahead
      : undefined
  if (ahead !== undefined) {
    const withPage = (decided: RateDecision): Admission => {
      const admission = admitted(decided)
      const page = ahead.page()
      return page === undefined ? admission : { ...admission, listed: listed(new JsonText(page)) }
    }
    const decision = limiter.take(bucket, limits, ahead)
    return decision instanceof Promise ? decision.then(withPage, unknown()) : withPage(decision)
  }
  const decision = limiter.take(bucket, limits)
  return decision instanceof Promise ? decision.then(admitted, unknown()) : admitted(decision)
}

/** Tells whether `Prefer: code=` decides before the key's scenario (D30). */
function answersPreference(parts: ApiHandlerParts, request: SandboxRequest, operationId: string): boolean {
  if (!parts.prefer) return false
  try {
    return preferredStatus(request.headers.get('prefer'), operationId, parts.forcible.get(operationId)) !== undefined
  } catch {
    return true
  }
}

function afterDecision(
  parts: ApiHandlerParts,
  url: URL,
  decision: RateDecision,
  headers: Headers,
  apiPath: string | undefined,
  route: RouteMatch | undefined,
  deprecation: Deprecation | undefined,
  apiKey: ApiKey | undefined,
  token: string | undefined,
): Admission {
  setRateLimitHeaders(headers, decision)
  if (decision.outcome !== 'allowed') throw refusal(decision)

  if (apiPath === undefined) {
    // The admin handler stands first when there is a token.
    if (isAdminPath(url.pathname)) throw new HttpError(404, ErrorCode.notFound, `${url.pathname}: ${ADMIN_API_OFF}`)
    throw new HttpError(
      404,
      ErrorCode.notFound,
      `${url.pathname} is not part of the API; it is served under ${parts.scope.prefix}`,
    )
  }
  if (apiKey === undefined) {
    if (token !== undefined) throw invalidKey()
    throw new HttpError(401, ErrorCode.unauthorized, 'An API key is required: send Authorization: Bearer <key>', {
      'www-authenticate': 'Bearer',
    })
  }
  return { apiPath, route, deprecation, key: apiKey.key }
}

/** Refuses an unknown key, a dropped session's bound key too (D17, D46). */
export function invalidKey(): HttpError {
  return new HttpError(401, ErrorCode.unauthorized, 'The API key is not valid', {
    'www-authenticate': 'Bearer error="invalid_token"',
  })
}

/** Sets rate-limit headers promising nothing when the state cannot say. */
function unknownQuota(headers: Headers, limits: Limits, now: number) {
  return (error: unknown): never => {
    setRateLimitHeaders(headers, {
      outcome: 'rate_limited',
      limit: limits.perMinute,
      remaining: 0,
      reset: resetOf(now, 'minute'),
    })
    throw error
  }
}

function refusal(decision: RateDecision): HttpError {
  const retryAfter = { 'retry-after': String(decision.retryAfter) }
  return decision.outcome === 'temporarily_banned'
    ? new HttpError(
        429,
        ErrorCode.temporarilyBanned,
        'This client is temporarily banned after repeated requests over its rate limit;' +
          ` retry in ${decision.retryAfter} s`,
        retryAfter,
      )
    : new HttpError(
        429,
        ErrorCode.rateLimited,
        `Rate limit of ${decision.limit} requests exceeded; retry in ${decision.retryAfter} s`,
        retryAfter,
      )
}

function setRateLimitHeaders(headers: Headers, decision: RateDecision): void {
  headers.set('x-ratelimit-limit', String(decision.limit))
  headers.set('x-ratelimit-remaining', String(decision.remaining))
  headers.set('x-ratelimit-reset', String(decision.reset))
}
