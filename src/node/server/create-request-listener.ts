import type { IncomingMessage, ServerResponse } from 'node:http'
import { getResponse, type RequestHandler } from 'msw'
import { CLIENT_ADDRESS_HEADER } from '../../core/pipeline/admit.js'
import { AdapterRequest } from '../../core/http/adapter-request.js'
import { JSON_CONTENT_TYPE, jsonPiecesOf, jsonText } from '../../core/http/to-response.js'
import { endAfterBody, incomingBody } from './incoming-body.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import { refusalAnswer } from './refusal-answer.js'
import { requestUrl } from './unservable-request.js'

export interface RequestListenerOptions {
  /** The origin requests are addressed to, e.g. `http://127.0.0.1:4010`. */
  origin: string
  /** Who the client is (create-client-address.ts); the socket's peer by default. */
  clientAddress?: (incoming: IncomingMessage) => string
}

/**
 * The node:http adapter: it only translates. An IncomingMessage becomes a fetch Request, msw's
 * `getResponse` runs the sandbox's handlers, and the Response is written back. The handlers
 * answer every request themselves (errors included), so this layer adds no behaviour of its own
 * beyond a last-resort 500 should the translation itself fail. The server (start-server.ts) has
 * already refused what cannot become a fetch Request (unservable-request.ts).
 */
export function createRequestListener(handlers: RequestHandler[], { origin, clientAddress = peerAddress }: RequestListenerOptions) {
  return (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    // The handlers write each answer to the request log themselves (core/request-log).
    translate(handlers, origin, clientAddress(incoming), incoming, outgoing).catch(() => {
      if (!outgoing.headersSent) {
        const { status, headers, body } = refusalAnswer(new HttpError(500, ErrorCode.internalError, 'The sandbox failed to answer this request.'))
        outgoing.writeHead(status, headers)
        outgoing.end(body)
      } else {
        outgoing.destroy()
      }
    })
  }
}

async function translate(handlers: RequestHandler[], origin: string, client: string, incoming: IncomingMessage, outgoing: ServerResponse): Promise<number> {
  const method = incoming.method ?? 'GET'
  const headers = new Headers()
  const raw = incoming.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    // The client address comes from the socket, never from what the client claims.
    const name = raw[i]!
    if (name.length !== CLIENT_ADDRESS_HEADER.length || name.toLowerCase() !== CLIENT_ADDRESS_HEADER) headers.append(name, raw[i + 1]!)
  }
  headers.set(CLIENT_ADDRESS_HEADER, client)
  const hasBody =
    method !== 'GET' && method !== 'HEAD' && (incoming.headers['content-length'] !== undefined || incoming.headers['transfer-encoding'] !== undefined)
  const body = hasBody ? incomingBody(incoming) : undefined
  // No AbortSignal: nothing in the handlers reads `request.signal` (a client gone mid-body errors
  // the body stream instead), and undici follows a passed signal with a WeakRef and a
  // FinalizationRegistry entry per request.
  const request = new AdapterRequest(requestUrl(incoming, origin), {
    method,
    headers,
    ...(body ? { body: body.stream, duplex: 'half' } : {}),
  } as RequestInit)

  const response = (await getResponse(handlers, request, { quiet: true })) ?? notFound()
  if (response.type === 'error') {
    // `Response.error()` (an injected dropped connection): the client sees the socket close
    // without an answer, as when a real server dies mid-request.
    outgoing.destroy()
    return 0
  }
  const pieces = jsonPiecesOf(response)
  if (pieces !== undefined) {
    await writePieces(outgoing, response, method === 'HEAD' ? undefined : pieces)
    return response.status
  }
  const text = jsonText(response)
  const payload = method === 'HEAD' ? undefined : (text ?? (response.body === null ? undefined : Buffer.from(await response.arrayBuffer())))
  const outgoingHeaders: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    outgoingHeaders[name] = value
  })
  if (payload !== undefined) outgoingHeaders['content-length'] = String(Buffer.byteLength(payload))
  outgoing.writeHead(response.status, outgoingHeaders)
  if (body === undefined || incoming.complete) {
    outgoing.end(payload)
    return response.status
  }
  // A body the handlers refused before reading it whole (413, 415, 401...): the answer goes out
  // now, and ends once the rest of the body is drained.
  if (payload !== undefined) outgoing.write(payload)
  body.stop()
  endAfterBody(incoming, outgoing)
  return response.status
}

// Small pieces are gathered to about this many characters per write: fewer chunks on the wire,
// and still only this much held at a time (D36).
const PIECES_PER_WRITE = 16 * 1024

/**
 * Writes a JSON body made in pieces (the request log's exports) as it is made: chunked, small
 * pieces gathered to a write of about 16 KiB, waiting for the client to take each (backpressure), so memory stays
 * one write deep whatever the whole comes to. A client gone mid-way stops the making.
 */
async function writePieces(outgoing: ServerResponse, response: Response, pieces: (() => Iterable<string>) | undefined): Promise<void> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  outgoing.writeHead(response.status, headers)
  if (pieces === undefined) {
    outgoing.end()
    return
  }
  let gathered = ''
  const write = async (text: string) => {
    if (outgoing.write(text)) return
    await new Promise<void>((resolve) => {
      const done = () => {
        outgoing.off('drain', done)
        outgoing.off('close', done)
        resolve()
      }
      outgoing.on('drain', done)
      outgoing.on('close', done)
    })
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

function notFound(): Response {
  return new Response(JSON.stringify({ code: 'not_found', message: 'Not found', status: 404 }), {
    status: 404,
    headers: { 'content-type': JSON_CONTENT_TYPE },
  })
}
