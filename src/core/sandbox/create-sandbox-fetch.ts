import { getResponse, type RequestHandler } from 'msw'
import { API_AREAS } from '../contract/create-api-scope.js'
import { SESSION_HEADER } from '../sessions/session-name.js'

/** Creates a `fetch` the handlers answer, never the network. */
export function createSandboxFetch(
  handlers: RequestHandler[],
  baseUrl: string | undefined,
  session?: string,
): typeof fetch {
  return async function sandboxFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = await toRequest(input, init, baseUrl)
    if (session !== undefined) request.headers.set(SESSION_HEADER, session)
    request.signal.throwIfAborted()
    const response = await abortable(getResponse(handlers, request, { quiet: true }), request.signal)
    if (response === undefined) {
      throw new TypeError(
        `petstore-sandbox: ${request.method} ${request.url} is outside the sandbox's API (${apiAreas(baseUrl)});` +
          ' sandbox.fetch sends nothing to the network',
      )
    }
    if (response.type === 'error')
      throw new TypeError('Failed to fetch: the sandbox dropped the connection (an injected fault)')
    return response
  }
}

/** Builds `fetch(input, init)`'s Request with this realm's `Request`. */
async function toRequest(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  baseUrl: string | undefined,
): Promise<Request> {
  const own = init?.headers === undefined ? init : { ...init, headers: headerPairs(init.headers) }
  if (typeof input === 'string') return new Request(absolute(input, baseUrl), own)
  const other: unknown = input
  if (input instanceof Request || input instanceof URL || !isRequestLike(other)) return new Request(input, own)
  const method = own?.method ?? other.method
  const body = own?.body ?? (method === 'GET' || method === 'HEAD' ? undefined : await other.arrayBuffer())
  return new Request(other.url, {
    method,
    headers: headerPairs(other.headers),
    ...(other.signal instanceof AbortSignal ? { signal: other.signal } : {}),
    ...own,
    ...(body === undefined ? {} : { body }),
  })
}

/** Tells a Request of another realm, which `instanceof Request` misses. */
function isRequestLike(input: unknown): input is Request {
  return (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as Request).url === 'string' &&
    typeof (input as Request).method === 'string'
  )
}

/** Returns headers as pairs, which every realm's `Request` reads. */
function headerPairs(headers: HeadersInit): HeadersInit {
  if (Array.isArray(headers) || typeof (headers as Headers).forEach !== 'function') return headers
  const pairs: Array<[string, string]> = []
  ;(headers as Headers).forEach((value, name) => {
    pairs.push([name, value])
  })
  return pairs
}

/** Words what the handlers claim (D40). */
function apiAreas(baseUrl: string | undefined): string {
  const base = baseUrl === undefined ? '/v1' : baseUrl.replace(/\/+$/, '')
  const areas = API_AREAS.map((area) => `${base}${area}`)
  return `${areas.slice(0, -1).join(', ')} and ${areas.at(-1)}${baseUrl === undefined ? ' on any origin' : ''}`
}

/** Resolves a relative URL against the base URL, else the page's. */
function absolute(url: string, baseUrl: string | undefined): string {
  if (URL.canParse(url)) return url
  const base = baseUrl ?? (globalThis as { location?: { href?: string } }).location?.href
  if (base === undefined || !URL.canParse(url, base)) {
    throw new TypeError(
      'petstore-sandbox: sandbox.fetch needs an absolute URL,' +
        ` or a baseUrl option to resolve ${JSON.stringify(url)} against`,
    )
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
