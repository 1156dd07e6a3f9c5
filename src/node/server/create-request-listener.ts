import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { getResponse, type RequestHandler } from 'msw'
import { CLIENT_ADDRESS_HEADER } from '../../core/pipeline/admit.js'
import { AdapterRequest } from '../../core/http/adapter-request.js'
import { writtenHeaders } from '../../core/http/wire-headers.js'
import { type Answer, jsonPiecesOf, jsonText, repliedHeaders, WireAnswer } from '../../core/http/to-response.js'
import { drained, type IncomingBody, incomingBody, leaveBody } from './incoming-body.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import type { AnswerTail } from '../../core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../core/pipeline/claiming-handler.js'
import { refusalAnswer, type WrittenAnswer } from './refusal-answer.js'
import { requestUrl } from './unservable-request.js'
import { createBatchedEnds, type EndAnswer } from './batched-ends.js'
import type { MaybePromise } from '../../core/state/maybe-promise.js'

export interface RequestListenerOptions {
  /** The origin requests are addressed to, e.g. `http://127.0.0.1:4010`. */
  origin: string
  /** Who the client is (create-client-address.ts); the socket's peer by default. */
  clientAddress?: (incoming: IncomingMessage) => string
  /** Headers every answer carries unless its handler gives them itself (start-server.ts). */
  answerHeaders?: Record<string, string>
  /** Ends the answers (answer-tail.ts), building the last-resort 500. */
  tail: AnswerTail
}

// Bounds what is drained of an unread body after answering: twice the proxy's cap.
const MAX_DISCARD_BYTES = 32 * 1024 * 1024

/** An answer passed on as it came, which the adapter writes byte for byte (`rawResponse`). */
interface RawAnswer {
  status: number
  /** Header pairs as they are written: names as spelled, repeated names kept, in order. */
  rawHeaders: string[]
  body: Buffer
}

const RAW = Symbol('petstore-sandbox.rawAnswer')

/** Wraps an answer the adapter writes as it came (the proxy's upstream), which a fetch Response would reshape. */
export function rawResponse(answer: RawAnswer): Response {
  return Object.assign(new Response(null, { status: 200 }), { [RAW]: answer })
}

/** Creates the node:http adapter, which only translates, adding nothing but a last-resort 500. */
export function createRequestListener(
  handlers: RequestHandler[],
  { origin, clientAddress = peerAddress, answerHeaders = {}, tail }: RequestListenerOptions,
) {
  const added = Object.entries(answerHeaders).map(([name, value]) => [name, name.toLowerCase(), value] as const)
  const wire: Wire = { added, end: createBatchedEnds() }
  return (incoming: IncomingMessage, outgoing: ServerResponse, url?: URL): void => {
    // The handlers write each answer to the request log themselves (core/request-log).
    translate(handlers, url ?? requestUrl(incoming, origin), clientAddress(incoming), incoming, outgoing, wire).catch(
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

/** Headers every answer carries unless it gives them: the name as written, lower-cased, and the value. */
type AddedHeaders = ReadonlyArray<readonly [string, string, string]>

/** Holds how this listener writes answers. */
interface Wire {
  added: AddedHeaders
  end: EndAnswer
}

async function translate(
  handlers: RequestHandler[],
  url: URL | null,
  client: string,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  wire: Wire,
): Promise<void> {
  const { added } = wire
  const method = incoming.method ?? 'GET'
  const hasBody =
    method !== 'GET' &&
    method !== 'HEAD' &&
    (incoming.headers['content-length'] !== undefined || incoming.headers['transfer-encoding'] !== undefined)
  const body = hasBody ? incomingBody(incoming) : undefined
  // Passes no AbortSignal: nothing reads it, and undici would track it per request.
  const request = new AdapterRequest({
    method,
    // Throws, answered 500, for a target that is no URL, which the server refuses first.
    url: url ?? new URL(incoming.url ?? '/'),
    rawHeaders: incoming.rawHeaders,
    // The client address comes from the socket, never from what the client claims.
    set: [CLIENT_ADDRESS_HEADER, client],
    body: body?.stream ?? null,
  })
  if (body) leaveBody(request, body)
  try {
    // The server's last handler claims what no other does (start-server.ts).
    const answered = answerOf(handlers, request)
    const answer = answered instanceof Promise ? await answered : answered
    if (answer === undefined) throw new Error('no handler answered')
    if (answer instanceof WireAnswer) {
      const headers = outgoingHeadersOf(answer.headers, added)
      if (answer.pieces !== undefined)
        return await writePieces(outgoing, answer.status, headers, method === 'HEAD' ? undefined : answer.pieces)
      const payload = method === 'HEAD' ? undefined : answer.text
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload))
      return write(incoming, outgoing, answer.status, headers, payload, body, wire.end)
    }
    const response = answer
    if (response.type === 'error') {
      // Drops the connection for `Response.error()`, as a server dying mid-request would.
      outgoing.destroy()
      return
    }
    const passedOn = (response as Response & { [RAW]?: RawAnswer })[RAW]
    if (passedOn !== undefined) {
      const pairs = passedOn.rawHeaders
      for (const [name, lower, value] of added) if (!hasPair(pairs, lower)) pairs.push(name, value)
      return write(incoming, outgoing, passedOn.status, pairs, passedOn.body, body, wire.end)
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
    write(incoming, outgoing, response.status, outgoingHeaders, payload, body, wire.end)
  } finally {
    // Nothing reads the body any more: what a handler kept of it goes (incoming-body.ts).
    body?.release()
  }
}

/** Returns `headers` as node writes them, with the added ones they do not give themselves. */
function outgoingHeadersOf(headers: Headers, added: AddedHeaders): Record<string, string | string[]> {
  const outgoing = writtenHeaders(headers)
  for (const [name, lower, value] of added) if (outgoing[lower] === undefined) outgoing[name] = value
  return outgoing
}

/** Finds the first answer as msw's `getResponse` does, asking a `ClaimingHandler` directly (BENCHMARKS.md). */
function answerOf(handlers: RequestHandler[], request: AdapterRequest, from = 0): MaybePromise<Answer | undefined> {
  const onward = (response: Answer | undefined, at: number) => response ?? answerOf(handlers, request, at + 1)
  for (let at = from; at < handlers.length; at++) {
    const handler = handlers[at]!
    if (!(handler instanceof ClaimingHandler))
      return getResponse([handler], request.fetchRequest(), { quiet: true }).then((response) => onward(response, at))
    const served = handler.serve(request, request.parsedUrl)
    if (served === null) continue
    if (served instanceof Promise) return served.then((response) => onward(response, at))
    if (served !== undefined) return served
  }
  return undefined
}

/** Writes an answer, ending it once the rest of an unread request body is drained. */
function write(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders | string[],
  payload: string | Buffer | undefined,
  body: IncomingBody | undefined,
  end: EndAnswer,
): void {
  outgoing.writeHead(status, headers)
  if (body === undefined || incoming.complete) {
    end(outgoing, payload)
    return
  }
  if (payload !== undefined) outgoing.write(payload)
  body.stop()
  endAfterBody(incoming, outgoing)
}

/** Writes an answer to a request refused unread, closing the connection after it. */
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

/** Ends an answer once the request body is drained, as a reset would destroy it (RFC 9112 9.6, lingering close). */
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

// Gathers small pieces to about this many characters per write (D36).
const PIECES_PER_WRITE = 16 * 1024

/** Writes a JSON body in pieces as it is made, with backpressure, so memory stays one write deep (D36). */
async function writePieces(
  outgoing: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
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
    // Sends a large piece on its own, below V8's large objects (BENCHMARKS.md, "Memory of the request log").
    if (gathered !== '') await write(gathered)
    gathered = ''
    await write(piece)
  }
  if (!outgoing.destroyed) outgoing.end(gathered)
}

function peerAddress(incoming: IncomingMessage): string {
  return incoming.socket.remoteAddress ?? 'unknown'
}
