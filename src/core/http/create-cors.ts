import type { SandboxRequest } from './sandbox-request.js'
import type { Reply } from './reply.js'

/** Response headers a browser app may read (D19). */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  // Injected faults are marked so a page can tell them from real failures (docs/running-for-a-team.md).
  'X-Sandbox-Fault',
  // So is the answer a key's scenario shaped (D29).
  'X-Sandbox-Scenario',
  'Preference-Applied',
  // The session an answer was given in (D34).
  'X-Sandbox-Session',
].join(', ')

// What a browser may send to a path the API does not serve: every method fetch preflights.
const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

export type CorsOrigins = '*' | readonly string[]

/**
 * CORS for browser frontends on other origins (D19): any origin by default, or only the listed
 * ones. Bearer keys travel in `Authorization`, which is not a CORS credential, so `*` is safe.
 */
export function createCors(origins: CorsOrigins) {
  const allowed = origins === '*' ? undefined : new Set(origins)

  // With `*` every answer says so, Origin or not: happy-dom preflights cross-origin requests
  // without an Origin header and refuses the real request unless the allow headers come back.
  function allowOrigin(request: SandboxRequest, headers: Headers): boolean {
    if (allowed === undefined) {
      headers.set('access-control-allow-origin', '*')
      return true
    }
    headers.append('vary', 'Origin')
    const origin = request.headers.get('origin')
    if (origin === null || !allowed.has(origin)) return false
    headers.set('access-control-allow-origin', origin)
    return true
  }

  return {
    /** Adds the CORS headers of an actual (non-preflight) response. */
    apply(request: SandboxRequest, headers: Headers): void {
      if (allowOrigin(request, headers)) headers.set('access-control-expose-headers', EXPOSED_HEADERS)
    },

    /**
     * Answers a preflight (or a plain OPTIONS) without a key and without spending quota. `allow`
     * is the path's methods; for a path the API does not serve there are none, and the browser
     * may send any method, so that the request itself gets its 404 or 501 (D19).
     */
    preflight(request: SandboxRequest, headers: Headers, allow: readonly string[] | undefined): Reply {
      if (allow !== undefined) headers.set('allow', allow.join(', '))
      if (allowOrigin(request, headers)) {
        headers.set('access-control-allow-methods', (allow ?? ANY_METHOD).join(', '))
        // Prefer: a page may force a status with --prefer (D30); without it the header is ignored.
        // X-Sandbox-Session, or baggage as OpenTelemetry's browser SDK sends it: a page may play in a session of its own (D34, D43).
        headers.set('access-control-allow-headers', 'Authorization, Content-Type, Prefer, X-Sandbox-Session, baggage')
        headers.set('access-control-max-age', '600')
      }
      return { status: 204, headers }
    },
  }
}

export type Cors = ReturnType<typeof createCors>
