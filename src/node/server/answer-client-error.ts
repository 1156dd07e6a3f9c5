import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { RequestHandler } from 'msw'
import { ErrorCode } from '../../core/errors/error-code.js'
import { refusalAnswer, type Refusal } from './refusal-answer.js'

// How long a socket answered here may linger for the client to read the answer before it is cut.
const LINGER_MS = 2_000

interface ClientError extends Error {
  code?: string
}

/**
 * node:http's `clientError` listener: requests node rejects before any handler runs (a malformed
 * request line or header, a head over `maxHeaderBytes`, a client too slow to send its head) get
 * an Error body with the rate-limit headers instead of node's bare `400 Bad Request`. A socket
 * that is gone, or already carries a response, can take no answer: it is only destroyed.
 *
 * @example
 * server.on('clientError', answerClientError(sandbox.originHandlers, 'http://127.0.0.1:4010'))
 */
export function answerClientError(handlers: RequestHandler[], origin: string) {
  return (error: ClientError, socket: Duplex): void => {
    const refusal = refusalOf(error)
    if (refusal === undefined || !socket.writable || responseStarted(socket)) {
      socket.destroy()
      return
    }
    writeRefusal(handlers, origin, socket, refusal)
  }
}

/** Answers on a raw socket (no ServerResponse exists for it) and closes the connection. */
export function writeRefusal(handlers: RequestHandler[], origin: string, socket: Duplex, refusal: Refusal): void {
  const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown'
  void refusalAnswer(handlers, origin, address, refusal).then(({ status, headers, body }) => {
    if (!socket.writable) return socket.destroy()
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'connection: close',
      `date: ${new Date().toUTCString()}`,
    ]
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
    // The client may still be sending (an oversized head): give it time to read the answer.
    setTimeout(() => socket.destroy(), LINGER_MS).unref()
  })
}

function refusalOf(error: ClientError): Refusal | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: ErrorCode.requestTimeout, message: 'The request was not received in time; the connection is closed' }
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: ErrorCode.headersTooLarge, message: 'The request line and headers are too large' }
    default: {
      const reason = error.message.replace(/^Parse Error: /, '')
      return { status: 400, code: ErrorCode.invalidRequest, message: `The request is not valid HTTP/1.1: ${reason}` }
    }
  }
}

/** Whether node already wrote part of a response on this socket (a pipelined request). */
function responseStarted(socket: Duplex): boolean {
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  return current?.headersSent === true
}
