import { isAdapterRequest } from './adapter-request.js'
import type { Reply } from './reply.js'

/**
 * A JSON body that is already text, such as a page of pets as a shared store keeps them: the edge
 * writes it as it is instead of parsing it and serializing it again (BENCHMARKS.md, the Redis
 * section). The text must be the JSON of a value the contract allows there.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

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
  return toResponseAndText(reply, request).response
}

/** {@link toResponse}, with the JSON text of the body made once for both (the request log keeps it). */
export function toResponseAndText(reply: Reply, request: Request): { response: Response; text: string | undefined } {
  const { status, headers } = reply
  if (reply.body === undefined) return { response: new Response(null, { status, headers }), text: undefined }
  headers.set('content-type', JSON_CONTENT_TYPE)
  const text = reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body)
  if (isAdapterRequest(request)) {
    return { response: Object.assign(new Response(null, { status, headers }), { [JSON_TEXT]: text }), text }
  }
  const bytes = utf8.encode(text)
  headers.set('content-length', String(bytes.byteLength))
  return { response: new Response(request.method === 'HEAD' ? null : bytes, { status, headers }), text }
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
