import type { SandboxRequest } from './sandbox-request.js'
import { AdapterRequest, isAdapterRequest } from './adapter-request.js'
import { JsonPieces } from './json-pieces.js'
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
// The pieces of a JsonPieces body, which the adapter writes as they come.
const JSON_PIECES = Symbol('petstore-sandbox.jsonPieces')
// The reply's own headers, which the adapter writes: copying them into the Response's list
// (validated and sorted once more) showed in every request's profile (BENCHMARKS.md, "What the
// profiles changed").
const REPLY_HEADERS = Symbol('petstore-sandbox.replyHeaders')

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
export function toResponse(reply: Reply, request: SandboxRequest): Response {
  const { response } = toResponseAndText(reply, request)
  return response instanceof WireAnswer ? response.toResponse() : response
}

/**
 * Holds an answer to an `AdapterRequest` as the adapter writes it, with no Response built for it
 * (BENCHMARKS.md, "Closer to the wire"): the status, the reply's headers, and its JSON text or pieces.
 */
export class WireAnswer {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly text?: string,
    readonly pieces?: () => Iterable<string>,
  ) {}

  /** Returns it as a Response that carries the same for the adapter (`repliedHeaders`, `jsonText`, `jsonPiecesOf`). */
  toResponse(): Response {
    return adapterResponse(this.status, this.headers, { [JSON_TEXT]: this.text, [JSON_PIECES]: this.pieces })
  }
}

/** An answer as the tail gives it: a Response, or for the node:http adapter's own request a `WireAnswer`. */
export type Answer = Response | WireAnswer

/** {@link toResponse}, with the JSON text of the body made once for both (the request log keeps it). */
export function toResponseAndText(
  reply: Reply,
  request: SandboxRequest,
): { response: Answer; text: string | undefined } {
  const { status, headers } = reply
  const wire = request instanceof AdapterRequest
  const forAdapter = wire || isAdapterRequest(request)
  if (reply.body === undefined)
    return {
      response: wire
        ? new WireAnswer(status, headers)
        : forAdapter
          ? adapterResponse(status, headers)
          : new Response(null, { status, headers }),
      text: undefined,
    }
  headers.set('content-type', JSON_CONTENT_TYPE)
  if (reply.body instanceof JsonPieces)
    return {
      response: wire
        ? new WireAnswer(status, headers, undefined, reply.body.pieces)
        : piecesResponse(reply.body, status, headers, request),
      text: undefined,
    }
  const text = reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body)
  if (wire) return { response: new WireAnswer(status, headers, text), text }
  if (forAdapter) return { response: adapterResponse(status, headers, { [JSON_TEXT]: text }), text }
  const bytes = utf8.encode(text)
  headers.set('content-length', String(bytes.byteLength))
  return { response: new Response(request.method === 'HEAD' ? null : bytes, { status, headers }), text }
}

/**
 * A response of JSON in pieces: for the adapter, the pieces themselves; otherwise a Blob of their
 * bytes with its length (msw leaks the socket of a mocked response without one), made a piece at
 * a time.
 */
function piecesResponse(body: JsonPieces, status: number, headers: Headers, request: SandboxRequest): Response {
  if (isAdapterRequest(request)) return adapterResponse(status, headers, { [JSON_PIECES]: body.pieces })
  if (request.method === 'HEAD') return new Response(null, { status, headers })
  const parts: Uint8Array<ArrayBuffer>[] = []
  for (const piece of body.pieces()) parts.push(utf8.encode(piece))
  const blob = new Blob(parts)
  headers.set('content-length', String(blob.size))
  return new Response(blob, { status, headers })
}

/**
 * A Response for the node:http adapter: its status, and the reply's headers and body carried
 * beside it for the adapter to write (`repliedHeaders`, `jsonText`, `jsonPiecesOf`); its own
 * header list stays empty, since nothing but the adapter reads it.
 */
function adapterResponse(
  status: number,
  headers: Headers,
  body: { [JSON_TEXT]?: string | undefined; [JSON_PIECES]?: (() => Iterable<string>) | undefined } = {},
): Response {
  return Object.assign(new Response(null, { status }), { [REPLY_HEADERS]: headers }, body)
}

/**
 * The headers a response is written with: for one made by `toResponse` for the adapter, the
 * reply's own; for any other, its header list.
 *
 * @example
 * repliedHeaders(toResponse({ status: 204, headers: new Headers({ a: '1' }) }, adapterRequest)).get('a') // '1'
 */
export function repliedHeaders(response: Response): Headers {
  return (response as Response & { [REPLY_HEADERS]?: Headers })[REPLY_HEADERS] ?? response.headers
}

/**
 * The pieces of a JSON body made by `toResponse` for the adapter from `JsonPieces`, or undefined.
 *
 * @example
 * jsonPiecesOf(toResponse({ status: 200, headers: new Headers(), body: new JsonPieces(() => ['{}']) }, adapterRequest)) // () => ['{}']
 */
export function jsonPiecesOf(response: Response): (() => Iterable<string>) | undefined {
  return (response as Response & { [JSON_PIECES]?: () => Iterable<string> })[JSON_PIECES]
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
