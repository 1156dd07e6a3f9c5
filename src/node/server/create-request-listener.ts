import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { getResponse, type RequestHandler } from 'msw'
import { CLIENT_ADDRESS_HEADER } from '../../core/pipeline/admit.js'
import { AdapterRequest } from '../../core/http/adapter-request.js'
import { type Answer, jsonPiecesOf, jsonText, repliedHeaders, WireAnswer } from '../../core/http/to-response.js'
import { drained, type IncomingBody, incomingBody, leaveBody } from './incoming-body.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import type { AnswerTail } from '../../core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../core/pipeline/claiming-handler.js'
import { refusalAnswer, type WrittenAnswer } from './refusal-answer.js'
import { requestUrl } from './unservable-request.js'

export interface RequestListenerOptions {
  /** The origin requests are addressed to, e.g. `http://127.0.0.1:4010`. */
  origin: string
  /** Who the client is (create-client-address.ts); the socket's peer by default. */
  clientAddress?: (incoming: IncomingMessage) => string
  /** Headers every answer carries unless its handler gives them itself (start-server.ts). */
  answerHeaders?: Record<string, string>
  /** The one tail (answer-tail.ts), which builds the last-resort 500. */
  tail: AnswerTail
}

// After answering, at most this much of an unread body is read and thrown away so the client
// can read the answer; a client still sending beyond it is cut off. Twice the proxy's forwarding
// cap, so a body the proxy refuses for its size is drained too.
const MAX_DISCARD_BYTES = 32 * 1024 * 1024

/** An answer passed on as it came, which the adapter writes byte for byte (`rawResponse`). */
interface RawAnswer {
  status: number
  /** Header pairs as they are written: names as spelled, repeated names kept, in order. */
  rawHeaders: string[]
  body: Buffer
}

const RAW = Symbol('petstore-sandbox.rawAnswer')

/**
 * A Response the node:http adapter writes as it is: its status, its header pairs as spelled and
 * repeated, its body bytes. For an answer passed on from elsewhere (the proxy's upstream), which a
 * fetch Response would reshape: it lower-cases names, folds repeated ones, and refuses a status
 * outside 200 to 599.
 */
export function rawResponse(answer: RawAnswer): Response {
  return Object.assign(new Response(null, { status: 200 }), { [RAW]: answer })
}

/**
 * The node:http adapter: it only translates. An IncomingMessage becomes the handlers' request
 * (`AdapterRequest`, with the URL the server parsed), the handlers run in order as msw runs them
 * (`answerOf`), and the Response is written back. The handlers answer every
 * request themselves, errors and what no one else claims included (they end through the one tail,
 * answer-tail.ts), so this layer adds no behaviour of its own beyond a last-resort 500 should the
 * translation itself fail. The server (start-server.ts) has already
 * refused what cannot become a fetch Request (unservable-request.ts). This file and the pages'
 * writer (pages/send-page.ts) are where answers are written, and answer-client-error.ts for heads
 * node:http could not parse.
 */
export function createRequestListener(
  handlers: RequestHandler[],
  { origin, clientAddress = peerAddress, answerHeaders = {}, tail }: RequestListenerOptions,
) {
  const added = Object.entries(answerHeaders).map(([name, value]) => [name, name.toLowerCase(), value] as const)
  return (incoming: IncomingMessage, outgoing: ServerResponse, url?: URL): void => {
    // The handlers write each answer to the request log themselves (core/request-log).
    translate(handlers, url ?? requestUrl(incoming, origin), clientAddress(incoming), incoming, outgoing, added).catch(
      () => {
        if (!outgoing.headersSent) {
          const { status, headers, body } = refusalAnswer(
            tail.refuse(
              undefined,
              new HttpError(500, ErrorCode.internalError, 'The sandbox failed to answer this request.'),
              new Headers(answerHeaders),
            ),
          )
          outgoing.writeHead(status, headers)
          outgoing.end(body)
        } else {
          outgoing.destroy()
        }
      },
    )
  }
}

/** Headers every answer carries unless it gives them itself: the name as written, lower-cased, and the value. */
type AddedHeaders = ReadonlyArray<readonly [string, string, string]>

async function translate(
  handlers: RequestHandler[],
  url: URL | null,
  client: string,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  added: AddedHeaders,
): Promise<void> {
  const method = incoming.method ?? 'GET'
  const hasBody =
    method !== 'GET' &&
    method !== 'HEAD' &&
    (incoming.headers['content-length'] !== undefined || incoming.headers['transfer-encoding'] !== undefined)
  const body = hasBody ? incomingBody(incoming) : undefined
  // No AbortSignal: nothing in the handlers reads `request.signal` (a client gone mid-body errors
  // the body stream instead), and undici follows a passed signal with a WeakRef and a
  // FinalizationRegistry entry per request.
  const request = new AdapterRequest({
    method,
    // A target that is no URL is the server's to refuse (unservable-request.ts); here it throws, answered 500.
    url: url ?? new URL(incoming.url ?? '/'),
    rawHeaders: incoming.rawHeaders,
    // The client address comes from the socket, never from what the client claims.
    set: [CLIENT_ADDRESS_HEADER, client],
    body: body?.stream ?? null,
  })
  if (body) leaveBody(request, body)
  try {
    // The server's last handler claims what no other does (start-server.ts).
    const answer = await answerOf(handlers, request)
    if (answer === undefined) throw new Error('no handler answered')
    if (answer instanceof WireAnswer) {
      const headers = outgoingHeadersOf(answer.headers, added)
      if (answer.pieces !== undefined)
        return await writePieces(outgoing, answer.status, headers, method === 'HEAD' ? undefined : answer.pieces)
      const payload = method === 'HEAD' ? undefined : answer.text
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload))
      return write(incoming, outgoing, answer.status, headers, payload, body)
    }
    const response = answer
    if (response.type === 'error') {
      // `Response.error()` (an injected dropped connection): the client sees the socket close
      // without an answer, as when a real server dies mid-request.
      outgoing.destroy()
      return
    }
    const passedOn = (response as Response & { [RAW]?: RawAnswer })[RAW]
    if (passedOn !== undefined) {
      const pairs = passedOn.rawHeaders
      for (const [name, lower, value] of added) if (!hasPair(pairs, lower)) pairs.push(name, value)
      return write(incoming, outgoing, passedOn.status, pairs, passedOn.body, body)
    }
    const outgoingHeaders = outgoingHeadersOf(repliedHeaders(response), added)
    const pieces = jsonPiecesOf(response)
    if (pieces !== undefined)
      return await writePieces(outgoing, response.status, outgoingHeaders, method === 'HEAD' ? undefined : pieces)
    const text = jsonText(response)
    const payload =
      method === 'HEAD'
        ? undefined
        : (text ?? (response.body === null ? undefined : Buffer.from(await response.arrayBuffer())))
    if (payload !== undefined) outgoingHeaders['content-length'] = String(Buffer.byteLength(payload))
    write(incoming, outgoing, response.status, outgoingHeaders, payload, body)
  } finally {
    // Nothing reads the body any more: what a handler kept of it goes (incoming-body.ts).
    body?.release()
  }
}

/** Returns `headers` as node writes them, with the added ones they do not give themselves. */
function outgoingHeadersOf(headers: Headers, added: AddedHeaders): Record<string, string> {
  const outgoing: Record<string, string> = {}
  headers.forEach((value, name) => {
    outgoing[name] = value
  })
  for (const [name, lower, value] of added) if (outgoing[lower] === undefined) outgoing[name] = value
  return outgoing
}

/**
 * Finds the first answer of `handlers` as msw's `getResponse` does, asking a `ClaimingHandler`
 * directly (BENCHMARKS.md, "Closer to the wire") and any other handler through msw.
 */
async function answerOf(handlers: RequestHandler[], request: AdapterRequest): Promise<Answer | undefined> {
  for (const handler of handlers) {
    if (handler instanceof ClaimingHandler) {
      const served = handler.serve(request, request.parsedUrl)
      if (served === null) continue
      const response = await served
      if (response !== undefined) return response
      continue
    }
    const response = await getResponse([handler], request.fetchRequest(), { quiet: true })
    if (response !== undefined) return response
  }
  return undefined
}

/**
 * Writes an answer (no body for HEAD: node leaves it out). One whose request body is still
 * arriving, refused before it was read whole (413, 415, 401...), goes out now and ends once the
 * rest of the body is drained.
 */
function write(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders | string[],
  payload: string | Buffer | undefined,
  body: IncomingBody | undefined,
): void {
  outgoing.writeHead(status, headers)
  if (body === undefined || incoming.complete) {
    outgoing.end(payload)
    return
  }
  if (payload !== undefined) outgoing.write(payload)
  body.stop()
  endAfterBody(incoming, outgoing)
}

/**
 * Writes an answer to a request refused before anything read it (start-server.ts): the connection
 * closes after it, and what the client sends meanwhile is thrown away.
 */
export function answerUnread(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  { status, headers, body }: WrittenAnswer,
): void {
  outgoing.shouldKeepAlive = false
  outgoing.writeHead(status, headers)
  outgoing.end(body)
  incoming.resume()
}

/**
 * Ends an answer whose request body is still arriving once the rest of it is read and thrown
 * away (or the connection is cut past MAX_DISCARD_BYTES). Closed with the body still arriving,
 * the connection is reset, and a reset destroys the answer waiting in the client's buffer
 * (RFC 9112 9.6, "lingering close").
 */
function endAfterBody(incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (incoming.readableEnded || incoming.destroyed) {
    outgoing.end()
    return
  }
  let discarded = 0
  const end = () => outgoing.end()
  incoming.once('end', end)
  incoming.once('close', end)
  incoming.on('data', (chunk: Buffer) => {
    discarded += chunk.byteLength
    if (discarded > MAX_DISCARD_BYTES) incoming.socket.destroy()
  })
  incoming.resume()
}

function hasPair(pairs: string[], lowerName: string): boolean {
  for (let i = 0; i < pairs.length; i += 2) if (pairs[i]!.toLowerCase() === lowerName) return true
  return false
}

// Small pieces are gathered to about this many characters per write: fewer chunks on the wire,
// and still only this much held at a time (D36).
const PIECES_PER_WRITE = 16 * 1024

/**
 * Writes a JSON body made in pieces (the request log's exports) as it is made: chunked, small
 * pieces gathered to a write of about 16 KiB, waiting for the client to take each (backpressure), so memory stays
 * one write deep whatever the whole comes to. A client gone mid-way stops the making.
 */
async function writePieces(
  outgoing: ServerResponse,
  status: number,
  headers: Record<string, string>,
  pieces: (() => Iterable<string>) | undefined,
): Promise<void> {
  outgoing.writeHead(status, headers)
  if (pieces === undefined) {
    outgoing.end()
    return
  }
  let gathered = ''
  const write = async (text: string) => {
    if (!outgoing.write(text)) await drained(outgoing)
  }
  for (const piece of pieces()) {
    if (outgoing.destroyed) return
    if (gathered.length + piece.length < PIECES_PER_WRITE) {
      gathered += piece
      continue
    }
    // A large piece goes out on its own: joined to others it would make a string V8 keeps
    // among its large objects until a full GC, and memory would follow the whole export.
    if (gathered !== '') await write(gathered)
    gathered = ''
    await write(piece)
  }
  if (!outgoing.destroyed) outgoing.end(gathered)
}

function peerAddress(incoming: IncomingMessage): string {
  return incoming.socket.remoteAddress ?? 'unknown'
}
