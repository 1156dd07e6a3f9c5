import type { RequestHeaders } from '../../core/http/sandbox-request.js'
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Socket } from 'node:net'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import { CLIENT_ADDRESS_HEADER } from '../../core/pipeline/admit.js'
import { drained } from '../server/incoming-body.js'
import { notForwarded } from './upstream-headers.js'

/** Bounds a forwarded body and an upstream answer, held whole for the checks (D38). */
export const MAX_FORWARDED_BYTES = 16 * 1024 * 1024

/** The upstream's answer as it came, the body still content-encoded. */
export interface UpstreamAnswer {
  status: number
  rawHeaders: string[]
  body: Buffer
}

export interface ForwardedRequest {
  target: URL
  method: string
  headers: RequestHeaders
  body: AsyncIterable<Uint8Array> | undefined
  timeoutMs: number
}

/** Forwards a request unchanged but for hop-by-hop headers, over node:http (D38). */
export function forwardRequest({
  target,
  method,
  headers,
  body,
  timeoutMs,
}: ForwardedRequest): Promise<UpstreamAnswer> {
  const skipped = notForwarded(headers.get('connection') ?? undefined)
  const outgoing: OutgoingHttpHeaders = {}
  headers.forEach((value, name) => {
    // The sandbox's note to its handlers.
    if (name !== 'host' && name !== CLIENT_ADDRESS_HEADER && !skipped.has(name)) outgoing[name] = value
  })
  // Without a length a body goes chunked; an empty write still says it has none.
  if (
    body === undefined &&
    outgoing['content-length'] === undefined &&
    (method === 'POST' || method === 'PUT' || method === 'PATCH')
  ) {
    outgoing['content-length'] = 0
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    let settled = false
    // From then on, the upstream may have the request.
    let reached = false
    let sending = false
    const settle = (error: UpstreamError | HttpError | undefined, answer?: UpstreamAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (error) {
        reject(error)
        request.destroy()
      } else {
        // Answered before the body was all sent: the connection cannot be used again.
        if (sending) request.destroy()
        resolve(answer!)
      }
    }
    const request = send(target, { method, headers: outgoing }, (response) => {
      const tooLarge = (size: string) => settle(new UpstreamError('too_large', size, true))
      const announced = Number(response.headers['content-length'])
      if (announced > MAX_FORWARDED_BYTES) return tooLarge(`Content-Length ${announced}`)
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_FORWARDED_BYTES) return tooLarge(`more than ${MAX_FORWARDED_BYTES} bytes sent`)
        chunks.push(chunk)
      })
      response.on('end', () =>
        settle(undefined, {
          status: response.statusCode ?? 502,
          rawHeaders: response.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      )
      // Cut mid-answer: node emits 'close' without 'end'.
      response.on('close', () => {
        if (!response.complete)
          settle(
            new UpstreamError(
              'unreachable',
              `${target.origin} closed the connection before its answer was complete`,
              true,
            ),
          )
      })
    })
    const sendBody = async () => {
      if (body === undefined) return void request.end()
      sending = true
      let sent = 0
      try {
        for await (const chunk of body) {
          sent += chunk.byteLength
          if (sent > MAX_FORWARDED_BYTES) {
            return settle(
              new HttpError(
                413,
                ErrorCode.payloadTooLarge,
                `The request body is larger than the ${MAX_FORWARDED_BYTES} bytes the proxy forwards`,
              ),
            )
          }
          if (settled) return
          if (!request.write(chunk)) await drained(request)
        }
        sending = false
        if (!settled) request.end()
      } catch {
        // No end, so never a shortened body.
        settle(new HttpError(400, ErrorCode.invalidRequest, 'body was not received in full'))
      }
    }
    request.on('socket', (socket: Socket) => {
      const connected = () => {
        reached = true
        void sendBody()
      }
      // A kept-alive socket is connected already.
      if (!socket.connecting) connected()
      else socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', connected)
    })
    const timer = setTimeout(
      () => settle(new UpstreamError('timeout', `no answer from ${target.origin} within ${timeoutMs} ms`, reached)),
      timeoutMs,
    )
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle(new UpstreamError('unreachable', error.code ?? error.message, reached)),
    )
  })
}

/** Says the upstream gave no complete answer; `reached` is false only when no connection was made (D25). */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'too_large',
    message: string,
    readonly reached: boolean,
  ) {
    super(message)
    this.name = 'UpstreamError'
  }
}
