import type { HttpHandler } from 'msw'
import { ApiError } from '../errors/api-error.js'
import { ConfigError } from '../errors/config-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { toErrorResponse } from '../errors/to-error-response.js'
import { jsonResponse } from '../http/json-response.js'
import { constantTimeEqual } from '../auth/constant-time-equal.js'
import { parseBearer } from '../auth/parse-bearer.js'
import { readJsonBody } from '../validation/read-json-body.js'
import type { QuotaChange } from '../rate-limit/create-rate-limiter.js'
import type { AdminControls } from './admin-controls.js'
import { ClaimingHandler } from '../pipeline/claiming-handler.js'

/** Where the admin API lives on the sandbox's origin, outside the API's `/v1`. */
export const ADMIN_PREFIX = '/__sandbox'

export interface AdminHandlerOptions {
  controls: AdminControls
  /** The admin token: `Authorization: Bearer <token>`. API keys never open the admin API. */
  token: string
  /** Only this origin's admin paths are claimed; any origin when undefined. */
  origin: string | undefined
  onUnexpectedError: (error: unknown) => void
}

type Route = (request: Request, url: URL, match: RegExpExecArray) => Promise<unknown> | unknown

/**
 * The admin API (fixtures/admin-openapi.yaml): a thin HTTP face over the same controls the
 * in-process sandbox offers as methods. Errors are Error bodies from the one error path.
 */
export function createAdminHandler({ controls, token, origin, onUnexpectedError }: AdminHandlerOptions): HttpHandler {
  const routes: Array<{ pattern: RegExp; methods: Record<string, Route> }> = [
    { pattern: /^\/health$/, methods: { GET: () => ({ status: 'ok', now: new Date(controls.clock.now()).toISOString() }) } },
    { pattern: /^\/state$/, methods: { GET: () => controls.state() } },
    {
      pattern: /^\/reset$/,
      methods: {
        POST: async (_request, url) => {
          const clock = url.searchParams.get('clock')
          if (clock !== null && clock !== 'true' && clock !== 'false') throw invalid('clock must be true or false')
          await controls.reset({ clock: clock === 'true' })
          return controls.state()
        },
      },
    },
    {
      pattern: /^\/clock$/,
      methods: {
        GET: () => clockBody(),
        POST: async (request) => {
          const body = await readJsonBody(request)
          onlyFields(body, ['set', 'advanceMs'])
          if ((body.set === undefined) === (body.advanceMs === undefined)) throw invalid('send exactly one of set (an ISO 8601 instant) or advanceMs (a number)')
          if (body.set !== undefined) {
            if (typeof body.set !== 'string' || !Number.isFinite(Date.parse(body.set))) throw invalid('set must be an ISO 8601 instant such as 2030-12-06T00:00:00Z')
            controls.clock.set(body.set)
          } else {
            if (typeof body.advanceMs !== 'number' || !Number.isSafeInteger(body.advanceMs)) throw invalid('advanceMs must be a whole number of milliseconds')
            controls.clock.advance(body.advanceMs)
          }
          return clockBody()
        },
      },
    },
    {
      pattern: /^\/keys\/([^/]+)$/,
      methods: {
        GET: (_request, _url, match) => keyState(match, () => controls.quota.get(decodeKey(match))),
        PATCH: async (request, _url, match) => {
          const body = await readJsonBody(request)
          const change = quotaChange(body)
          return keyState(match, () => controls.quota.set(decodeKey(match), change))
        },
      },
    },
    {
      pattern: /^\/faults$/,
      methods: {
        GET: () => controls.faults.get(),
        PUT: async (request) => controls.faults.set(await readJsonBody(request)),
      },
    },
    {
      pattern: /^\/requests$/,
      methods: {
        GET: (_request, url) => {
          const limit = url.searchParams.get('limit')
          if (limit !== null && !/^\d{1,9}$/.test(limit)) throw invalid('limit must be a whole number')
          return { requests: controls.requests(limit === null ? undefined : Number(limit)) }
        },
      },
    },
  ]

  function clockBody() {
    return { now: new Date(controls.clock.now()).toISOString() }
  }

  async function answer(request: Request, url: URL, headers: Headers): Promise<Response> {
    const presented = parseBearer(request.headers.get('authorization'))
    if (presented === undefined || !constantTimeEqual(presented, token)) {
      throw new ApiError(
        401,
        ErrorCode.unauthorized,
        presented === undefined ? 'The admin API needs Authorization: Bearer <admin token>' : 'The admin token is not valid (API keys do not open the admin API)',
        { 'www-authenticate': 'Bearer realm="petstore-sandbox admin"' },
      )
    }
    const path = url.pathname.slice(ADMIN_PREFIX.length)
    const method = request.method.toUpperCase()
    for (const { pattern, methods } of routes) {
      const match = pattern.exec(path)
      if (match === null) continue
      const route = methods[method]
      if (route === undefined) {
        const allow = Object.keys(methods).join(', ')
        throw new ApiError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${url.pathname}; allowed: ${allow}`, { allow })
      }
      try {
        return jsonResponse(await route(request, url, match), 200, headers, request)
      } catch (error) {
        // Controls check their input by throwing ConfigError (as they do for in-process
        // callers); over HTTP that is the client's bad input: 400.
        if (error instanceof ConfigError) throw invalid(error.message)
        throw error
      }
    }
    throw new ApiError(404, ErrorCode.notFound, `no admin resource at ${url.pathname}`)
  }

  // A ClaimingHandler, like the API handler: first in line, this handler sees every request, and
  // msw's own run() would clone each of them before its predicate said no.
  return new ClaimingHandler(
    (url) => (origin === undefined || url.origin === origin) && (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)),
    async (request, url) => {
      const headers = new Headers({ 'cache-control': 'no-store' })
      return answer(request, url, headers).catch((error: unknown) => toErrorResponse(error, headers, onUnexpectedError, request))
    },
  )
}

function invalid(message: string): ApiError {
  return new ApiError(400, ErrorCode.invalidRequest, message)
}

function decodeKey(match: RegExpExecArray): string {
  try {
    return decodeURIComponent(match[1]!)
  } catch {
    throw invalid('the key in the path is not valid percent-encoded UTF-8')
  }
}

function keyState(match: RegExpExecArray, read: () => unknown): unknown {
  try {
    return { key: decodeKey(match), quota: read() }
  } catch (error) {
    if (error instanceof ConfigError) throw new ApiError(404, ErrorCode.notFound, error.message)
    throw error
  }
}

function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name)) throw invalid(`${name} is not a field here; allowed: ${allowed.join(', ')}`)
  }
}

function quotaChange(body: Record<string, unknown>): QuotaChange {
  onlyFields(body, ['remaining', 'minuteRemaining', 'dayRemaining', 'banned'])
  if (Object.keys(body).length === 0) throw invalid('send at least one of remaining, minuteRemaining, dayRemaining, banned')
  const change: QuotaChange = {}
  for (const name of ['remaining', 'minuteRemaining', 'dayRemaining'] as const) {
    const value = body[name]
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalid(`${name} must be a whole number of 0 or more`)
    change[name] = value
  }
  const banned = body.banned
  if (banned !== undefined) {
    if (typeof banned !== 'boolean' && !(typeof banned === 'number' && Number.isFinite(banned) && banned > 0)) {
      throw invalid('banned must be true, false, or a positive number of seconds')
    }
    change.banned = banned
  }
  return change
}
