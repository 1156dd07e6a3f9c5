import { AdapterRequest } from './adapter-request.js'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

// The JSON text a response was made from. The node:http adapter writes it as it is: reading it
// back through the Response's web stream (a byte stream, a reader, chunks and promises) was
// about a tenth of the adapter's cost per request, and making that stream about as much again.
const JSON_TEXT = Symbol('petstore-sandbox.jsonText')

/**
 * A JSON response with the sandbox's content type; `headers` is taken over as is. For the
 * request of the node:http adapter (`AdapterRequest`) the Response carries no body stream, only
 * the text; for any other it is an ordinary Response whose body is that text.
 *
 * @example
 * await jsonResponse({ a: 1 }, 200, new Headers()).json() // { a: 1 }
 */
export function jsonResponse(body: unknown, status: number, headers: Headers, request?: Request): Response {
  headers.set('content-type', JSON_CONTENT_TYPE)
  const text = JSON.stringify(body)
  const response = new Response(request instanceof AdapterRequest ? null : text, { status, headers })
  return Object.assign(response, { [JSON_TEXT]: text })
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
