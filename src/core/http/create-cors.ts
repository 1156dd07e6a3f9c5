import type { SandboxRequest } from './sandbox-request.js'
import type { Reply } from './reply.js'

export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  // Marks faults and scenarios, so a page tells them from real failures (D29).
  'X-Sandbox-Fault',
  'X-Sandbox-Scenario',
  'Preference-Applied',
  'X-Sandbox-Session',
].join(', ')

const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

export type CorsOrigins = '*' | readonly string[]

/** Creates CORS for frontends on other origins, any by default (D19). */
export function createCors(origins: CorsOrigins) {
  const allowed = origins === '*' ? undefined : new Set(origins)

  // Answers `*` even without an Origin: happy-dom preflights without one.
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
    apply(request: SandboxRequest, headers: Headers): void {
      if (allowOrigin(request, headers)) headers.set('access-control-expose-headers', EXPOSED_HEADERS)
    },

    /** Answers a preflight without a key or quota (D19). */
    preflight(request: SandboxRequest, headers: Headers, allow: readonly string[] | undefined): Reply {
      if (allow !== undefined) headers.set('allow', allow.join(', '))
      if (allowOrigin(request, headers)) {
        headers.set('access-control-allow-methods', (allow ?? ANY_METHOD).join(', '))
        // Allows Prefer (D30) and a page's own session (D34, D43).
        headers.set('access-control-allow-headers', 'Authorization, Content-Type, Prefer, X-Sandbox-Session, baggage')
        headers.set('access-control-max-age', '600')
      }
      return { status: 204, headers }
    },
  }
}

export type Cors = ReturnType<typeof createCors>
