import type { IncomingMessage, ServerResponse } from 'node:http'
import { getResponse, type RequestHandler } from 'msw'
import { CLIENT_ADDRESS_HEADER } from '../../core/pipeline/admit.js'
import { AdapterRequest } from '../../core/http/adapter-request.js'
import { JSON_CONTENT_TYPE, jsonText } from '../../core/http/to-response.js'
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

function peerAddress(incoming: IncomingMessage): string {
  return incoming.socket.remoteAddress ?? 'unknown'
}

function notFound(): Response {
  return new Response(JSON.stringify({ code: 'not_found', message: 'Not found', status: 404 }), {
    status: 404,
    headers: { 'content-type': JSON_CONTENT_TYPE },
  })
}
