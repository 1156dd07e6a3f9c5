import type { IncomingMessage } from 'node:http'
import { createLru } from '../../core/cache/create-lru.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'

// Fetch's forbidden methods.
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** Says why a request cannot become a fetch Request. */
export function unservableRequest(incoming: IncomingMessage, url: URL | null): HttpError | undefined {
  const method = incoming.method ?? 'GET'
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    return new HttpError(400, ErrorCode.invalidRequest, `${method} requests are not supported by the sandbox`)
  }
  if (incoming.httpVersion === '1.1') {
    let hosts = 0
    for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
      const name = incoming.rawHeaders[i]!
      if (name.length === 4 && name.toLowerCase() === 'host') hosts++
    }
    if (hosts !== 1)
      return new HttpError(
        400,
        ErrorCode.invalidRequest,
        `An HTTP/1.1 request needs exactly one Host header; this one has ${hosts}`,
      )
  }
  const expect = incoming.headers.expect
  if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') {
    return new HttpError(
      417,
      ErrorCode.expectationFailed,
      `Expect ${JSON.stringify(expect)} is not supported; only 100-continue is`,
    )
  }
  const encoding = incoming.headers['transfer-encoding']
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'chunked') {
    // node reads any coding list as chunked (RFC 9112 6.1).
    return new HttpError(
      400,
      ErrorCode.invalidRequest,
      `Transfer-Encoding ${JSON.stringify(encoding)} is not supported; send chunked alone`,
    )
  }
  if (url === null) {
    return new HttpError(400, ErrorCode.invalidRequest, 'The request target is not a valid URL')
  }
  return undefined
}

/** Parses the target once; origin-form `//x` stays a path, not a host. */
export function requestUrl(incoming: IncomingMessage, origin: string): URL | null {
  const target = incoming.url ?? '/'
  return target.startsWith('/') ? URL.parse(`${origin}${target}`) : URL.parse(target, origin)
}

// How many targets stay parsed, and how long the longest kept may be (BENCHMARKS.md, "Closer to the wire").
const URLS_KEPT = 64
const LONGEST_KEPT = 512

/** Creates `requestUrl` for one origin, keeping the URLs of recent targets; one changed since is parsed again. */
export function createRequestUrls(origin: string): (incoming: IncomingMessage) => URL | null {
  const kept = createLru<{ url: URL; href: string }>(() => URLS_KEPT)
  return (incoming) => {
    const target = incoming.url ?? '/'
    const found = kept.use(target)
    if (found !== undefined && found.url.href === found.href) return found.url
    const url = requestUrl(incoming, origin)
    if (url !== null && target.length <= LONGEST_KEPT) kept.put(target, { url, href: url.href })
    return url
  }
}
