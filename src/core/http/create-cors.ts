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

/** Creates CORS for frontends on other origins (D19): any origin by default, safe as keys are no CORS credential. */
export function createCors(origins: CorsOrigins) {
  const allowed = origins === '*' ? undefined : new Set(origins)

  // Answers `*` with or without an Origin: happy-dom preflights without one.
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

    /** Answers a preflight without a key or quota; any method on a path the API does not serve (D19). */
    preflight(request: SandboxRequest, headers: Headers, allow: readonly string[] | undefined): Reply {
      if (allow !== undefined) headers.set('allow', allow.join(', '))
      if (allowOrigin(request, headers)) {
        headers.set('access-control-allow-methods', (allow ?? ANY_METHOD).join(', '))
        // Allows Prefer (D30), and X-Sandbox-Session or baggage for a page's own session (D34, D43).
        headers.set('access-control-allow-headers', 'Authorization, Content-Type, Prefer, X-Sandbox-Session, baggage')
        headers.set('access-control-max-age', '600')
      }
      return { status: 204, headers }
    },
  }
}

export type Cors = ReturnType<typeof createCors>
