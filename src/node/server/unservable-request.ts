import type { IncomingMessage } from 'node:http'
import { ErrorCode } from '../../core/errors/error-code.js'
import type { Refusal } from './refusal-answer.js'

// Methods a fetch Request refuses to carry (Fetch standard, "forbidden method").
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/**
 * Why a request node:http parsed still cannot become a fetch Request for the handlers, or
 * undefined: a method fetch forbids, an HTTP/1.1 head without exactly one Host (RFC 9112 3.2), a
 * target that is no URL. Checked here so these get a 400 Error body instead of a 500.
 *
 * @example
 * unservableRequest(incoming, 'http://127.0.0.1:4010') // { status: 400, code: 'invalid_request', ... }
 */
export function unservableRequest(incoming: IncomingMessage, origin: string): Refusal | undefined {
  const method = incoming.method ?? 'GET'
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    return { status: 400, code: ErrorCode.invalidRequest, message: `${method} requests are not supported by the sandbox` }
  }
  if (incoming.httpVersion === '1.1') {
    let hosts = 0
    for (let i = 0; i < incoming.rawHeaders.length; i += 2) if (incoming.rawHeaders[i]!.toLowerCase() === 'host') hosts++
    if (hosts !== 1) return { status: 400, code: ErrorCode.invalidRequest, message: `An HTTP/1.1 request needs exactly one Host header; this one has ${hosts}` }
  }
  if (!URL.canParse(incoming.url ?? '/', origin)) {
    return { status: 400, code: ErrorCode.invalidRequest, message: 'The request target is not a valid URL' }
  }
  return undefined
}
