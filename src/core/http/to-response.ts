import type { SandboxRequest } from './sandbox-request.js'
import { AdapterRequest, isAdapterRequest } from './adapter-request.js'
import { JsonPieces } from './json-pieces.js'
import type { Reply } from './reply.js'

/** Holds JSON already text, written as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

// Carries body and headers to the adapter unbuilt (BENCHMARKS.md, "What the profiles changed").
const JSON_TEXT = Symbol('petstore-sandbox.jsonText')
const JSON_PIECES = Symbol('petstore-sandbox.jsonPieces')
const REPLY_HEADERS = Symbol('petstore-sandbox.replyHeaders')

const utf8 = new TextEncoder()

/** Turns a reply into a Response with a `Content-Length`, as msw leaks sockets without (docs/upstream-reports.md). */
export function toResponse(reply: Reply, request: SandboxRequest): Response {
  const { response } = toResponseAndText(reply, request)
  return response instanceof WireAnswer ? response.toResponse() : response
}

/** Answers an `AdapterRequest` with no Response built (BENCHMARKS.md, "Closer to the wire"). */
export class WireAnswer {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly text?: string,
    readonly pieces?: () => Iterable<string>,
  ) {}

  toResponse(): Response {
    return adapterResponse(this.status, this.headers, { [JSON_TEXT]: this.text, [JSON_PIECES]: this.pieces })
  }
}

export type Answer = Response | WireAnswer

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

function piecesResponse(body: JsonPieces, status: number, headers: Headers, request: SandboxRequest): Response {
  if (isAdapterRequest(request)) return adapterResponse(status, headers, { [JSON_PIECES]: body.pieces })
  if (request.method === 'HEAD') return new Response(null, { status, headers })
  const parts: Uint8Array<ArrayBuffer>[] = []
  for (const piece of body.pieces()) parts.push(utf8.encode(piece))
  const blob = new Blob(parts)
  headers.set('content-length', String(blob.size))
  return new Response(blob, { status, headers })
}

function adapterResponse(
  status: number,
  headers: Headers,
  body: { [JSON_TEXT]?: string | undefined; [JSON_PIECES]?: (() => Iterable<string>) | undefined } = {},
): Response {
  return Object.assign(new Response(null, { status }), { [REPLY_HEADERS]: headers }, body)
}

export function repliedHeaders(response: Response): Headers {
  return (response as Response & { [REPLY_HEADERS]?: Headers })[REPLY_HEADERS] ?? response.headers
}

export function jsonPiecesOf(response: Response): (() => Iterable<string>) | undefined {
  return (response as Response & { [JSON_PIECES]?: () => Iterable<string> })[JSON_PIECES]
}

export function jsonText(response: Response): string | undefined {
  return (response as Response & { [JSON_TEXT]?: string })[JSON_TEXT]
}
