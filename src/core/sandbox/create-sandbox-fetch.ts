import { getResponse, type RequestHandler } from 'msw'
import { API_AREAS } from '../contract/create-api-scope.js'
import { SESSION_HEADER } from '../sessions/session-name.js'

/**
 * A `fetch` answered by the sandbox's handlers directly, with no interception: a client given it
 * can never reach the network, whenever it was built. (A client built before msw's
 * `server.listen()` keeps the original global `fetch` it captured, and msw never sees its
 * requests.) Requests no handler answers reject with a TypeError instead of going out; so does an
 * injected dropped connection, as a real `fetch` would.
 *
 * @example
 * const sandboxFetch = createSandboxFetch(sandbox.handlers, 'http://localhost:4010/v1')
 * await sandboxFetch('/v1/pets', { headers: { Authorization: 'Bearer sandbox-free-key' } })
 */
export function createSandboxFetch(handlers: RequestHandler[], baseUrl: string | undefined, session?: string): typeof fetch {
  return async function sandboxFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = typeof input === 'string' ? new Request(absolute(input, baseUrl), init) : new Request(input, init)
    // A session's fetch names it on every request (D34).
    if (session !== undefined) request.headers.set(SESSION_HEADER, session)
    request.signal.throwIfAborted()
    const response = await abortable(getResponse(handlers, request, { quiet: true }), request.signal)
    if (response === undefined) {
      throw new TypeError(
        `petstore-sandbox: ${request.method} ${request.url} is outside the sandbox's API (${apiAreas(baseUrl)}); sandbox.fetch sends nothing to the network`,
      )
    }
    if (response.type === 'error') throw new TypeError('Failed to fetch: the sandbox dropped the connection (an injected fault)')
    return response
  }
}

/** `/v1/pets, /v1/store and /v1/categories on any origin`: what the handlers claim (D40). */
function apiAreas(baseUrl: string | undefined): string {
  const base = baseUrl === undefined ? '/v1' : baseUrl.replace(/\/+$/, '')
  const areas = API_AREAS.map((area) => `${base}${area}`)
  return `${areas.slice(0, -1).join(', ')} and ${areas.at(-1)}${baseUrl === undefined ? ' on any origin' : ''}`
}

/** A relative URL is resolved as a page would: against the sandbox's base URL, else the page. */
function absolute(url: string, baseUrl: string | undefined): string {
  if (URL.canParse(url)) return url
  const base = baseUrl ?? (globalThis as { location?: { href?: string } }).location?.href
  if (base === undefined || !URL.canParse(url, base)) {
    throw new TypeError(`petstore-sandbox: sandbox.fetch needs an absolute URL, or a baseUrl option to resolve ${JSON.stringify(url)} against`)
  }
  return new URL(url, base).href
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
