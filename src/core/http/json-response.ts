import { isAdapterRequest } from './adapter-request.js'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

// The JSON text a response was made from. The node:http adapter writes it as it is: reading it
// back through the Response's web stream (a byte stream, a reader, chunks and promises) was
// about a tenth of the adapter's cost per request, and making that stream about as much again.
const JSON_TEXT = Symbol('petstore-sandbox.jsonText')

const utf8 = new TextEncoder()

/**
 * A JSON response with the sandbox's content type; `headers` is taken over as is. For the
 * request of the node:http adapter (`AdapterRequest`) the Response carries no body stream, only
 * the text (the adapter frames it); for any other it is an ordinary Response whose body is that
 * text's UTF-8 bytes, with their `Content-Length`.
 *
 * Why the length in-process: msw 3.0.5 (`@mswjs/interceptors` 0.45.12) ends the connection after
 * a mocked response of unknown length, and never closes that socket's TCP handle, so every such
 * request left about 42 KB of heap and an open handle behind for good (a suite of 10000 requests:
 * 400 MB). A response that says its length is complete without the end of the connection: the
 * client keeps the connection and sends the next request on it, as it would to a real server.
 *
 * @example
 * await jsonResponse({ a: 1 }, 200, new Headers()).json() // { a: 1 }
 */
export function jsonResponse(body: unknown, status: number, headers: Headers, request?: Request): Response {
  headers.set('content-type', JSON_CONTENT_TYPE)
  const text = JSON.stringify(body)
  let bytes: Uint8Array<ArrayBuffer> | null = null
  if (!isAdapterRequest(request)) {
    bytes = utf8.encode(text)
    headers.set('content-length', String(bytes.byteLength))
  }
  return Object.assign(new Response(bytes, { status, headers }), { [JSON_TEXT]: text })
}

/**
 * The JSON text of a response made by `jsonResponse`, unless its body was read, or undefined.
 *
 * @example
 * jsonText(jsonResponse({ a: 1 }, 200, new Headers())) // '{"a":1}'
 */
export function jsonText(response: Response): string | undefined {
  const text = (response as Response & { [JSON_TEXT]?: string })[JSON_TEXT]
  return text !== undefined && !response.bodyUsed ? text : undefined
}
