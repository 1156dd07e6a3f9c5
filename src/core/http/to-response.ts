import { isAdapterRequest } from './adapter-request.js'
import { JsonText } from './json-text.js'
import type { Reply } from './reply.js'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

// The JSON text a response was made from: the node:http adapter writes it as it is rather than
// reading it back through the Response's web stream (BENCHMARKS.md, "Where the time goes").
const JSON_TEXT = Symbol('petstore-sandbox.jsonText')

const utf8 = new TextEncoder()

/**
 * The one place a reply becomes a Response, for `request`: HEAD gets GET's headers without the
 * body (RFC 9110 9.3.2). For the node:http adapter's requests (`isAdapterRequest`) the Response
 * carries no body stream, only the JSON text, which the adapter frames itself. Any other gets an
 * ordinary Response whose body is the text's UTF-8 bytes with their `Content-Length`: without a
 * length, msw ends the connection after a mocked response and leaks its socket
 * (docs/upstream-reports.md).
 *
 * @example
 * await toResponse({ status: 200, headers: new Headers(), body: { a: 1 } }, request).json() // { a: 1 }
 */
export function toResponse(reply: Reply, request: Request): Response {
  const { status, headers } = reply
  if (reply.body === undefined) return new Response(null, { status, headers })
  headers.set('content-type', JSON_CONTENT_TYPE)
  const text = reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body)
  if (isAdapterRequest(request)) {
    return Object.assign(new Response(null, { status, headers }), { [JSON_TEXT]: text })
  }
  const bytes = utf8.encode(text)
  headers.set('content-length', String(bytes.byteLength))
  return new Response(request.method === 'HEAD' ? null : bytes, { status, headers })
}

/**
 * The JSON text of a response made by `toResponse` for the adapter, or undefined.
 *
 * @example
 * jsonText(toResponse({ status: 200, headers: new Headers(), body: { a: 1 } }, adapterRequest)) // '{"a":1}'
 */
export function jsonText(response: Response): string | undefined {
  return (response as Response & { [JSON_TEXT]?: string })[JSON_TEXT]
}
