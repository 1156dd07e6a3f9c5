import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Socket } from 'node:net'
import { notForwarded } from './hop-by-hop-headers.js'
import { UpstreamError } from './upstream-error.js'

/**
 * The most the proxy reads of an upstream answer, and of a request body: the answer is held whole
 * to check it against the promises, so its size bounds the proxy's memory per request.
 */
export const MAX_FORWARDED_BYTES = 16 * 1024 * 1024

/** The upstream's answer as it came: status, raw header pairs, body bytes (still content-encoded). */
export interface UpstreamAnswer {
  status: number
  rawHeaders: string[]
  body: Buffer
}

export interface ForwardedRequest {
  target: URL
  method: string
  headers: IncomingHttpHeaders
  body: Buffer
  timeoutMs: number
}

/**
 * Sends a request on to the upstream unchanged but for the connection's own headers and Host, and
 * reads the answer chunk by chunk up to MAX_FORWARDED_BYTES: a larger one is not read further
 * (its connection is cut) and rejects `too_large`. node:http rather than fetch, because fetch
 * decodes compressed bodies and the client must get the upstream's bytes as they were.
 */
export function forwardRequest({ target, method, headers, body, timeoutMs }: ForwardedRequest): Promise<UpstreamAnswer> {
  const skipped = notForwarded(headers.connection)
  const outgoing: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && name !== 'host' && name !== 'content-length' && !skipped.has(name)) outgoing[name] = value
  }
  if (body.length > 0 || method === 'POST' || method === 'PUT' || method === 'PATCH') outgoing['content-length'] = body.length
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    let settled = false
    // Whether a connection to the upstream was made: from then on, it may have the request.
    let reached = false
    const settle = (error: UpstreamError | undefined, answer?: UpstreamAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (error) {
        reject(error)
        request.destroy()
      } else resolve(answer!)
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
      response.on('end', () => settle(undefined, { status: response.statusCode ?? 502, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }))
      // Cut mid-answer: node emits 'close' without 'end'.
      response.on('close', () => {
        if (!response.complete) settle(new UpstreamError('unreachable', `${target.origin} closed the connection before its answer was complete`, true))
      })
    })
    request.on('socket', (socket: Socket) => {
      // A kept-alive socket is connected already; a new one once it connects (and, for TLS, is secured).
      if (!socket.connecting) reached = true
      else socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => (reached = true))
    })
    const timer = setTimeout(() => settle(new UpstreamError('timeout', `no answer from ${target.origin} within ${timeoutMs} ms`, reached)), timeoutMs)
    request.on('error', (error: NodeJS.ErrnoException) => settle(new UpstreamError('unreachable', error.code ?? error.message, reached)))
    request.end(body)
  })
}
