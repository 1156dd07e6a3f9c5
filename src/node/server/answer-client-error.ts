import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import type { WrittenAnswer } from './refusal-answer.js'

const LINGER_MS = 2_000

interface ClientError extends Error {
  code?: string
}

export type Refuse = (address: string, refusal: HttpError) => Promise<WrittenAnswer>

/** Answers what node:http rejects with an Error body, not a bare 400. */
export function answerClientError(refuse: Refuse) {
  return (error: ClientError, socket: Duplex): void => {
    const refusal = refusalOf(error)
    if (refusal === undefined || !socket.writable) {
      socket.destroy()
      return
    }
    const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined
    if (current === undefined || current.writableFinished) {
      writeRefusal(refuse, socket, refusal)
    } else if (current.req.complete) {
      // A pipelined request before the broken one is answered first.
      current.once('close', () => (socket.writable ? writeRefusal(refuse, socket, refusal) : socket.destroy()))
    } else if (current.headersSent) {
      // A body being answered broke: no second answer fits.
      socket.destroy()
    } else {
      writeRefusal(refuse, socket, refusal)
    }
  }
}

export function writeRefusal(refuse: Refuse, socket: Duplex, refusal: HttpError): void {
  const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown'
  void refuse(address, refusal).then(({ status, headers, body }) => {
    if (!socket.writable) return socket.destroy()
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      ...Object.entries(headers).flatMap(([name, value]) => [value].flat().map((one) => `${name}: ${one}`)),
      'connection: close',
      `date: ${new Date().toUTCString()}`,
    ]
    socket.write(`${head.join('\r\n')}\r\n\r\n`)
    socket.end(body)
    // The client may still be sending.
    setTimeout(() => socket.destroy(), LINGER_MS).unref()
  })
}

function refusalOf(error: ClientError): HttpError | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(
        408,
        ErrorCode.requestTimeout,
        'The request was not received in time; the connection is closed',
      )
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(431, ErrorCode.headersTooLarge, 'The request line and headers are too large')
    default: {
      const reason = error.message.replace(/^Parse Error: /, '')
      return new HttpError(400, ErrorCode.invalidRequest, `The request is not valid HTTP/1.1: ${reason}`)
    }
  }
}
