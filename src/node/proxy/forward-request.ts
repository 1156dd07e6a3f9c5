import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { HOP_BY_HOP_HEADERS } from './hop-by-hop-headers.js'
import { UpstreamError } from './upstream-error.js'

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
 * reads the whole answer; node:http rather than fetch, because fetch decodes compressed bodies and
 * the client must get the upstream's bytes as they were.
 */
export function forwardRequest({ target, method, headers, body, timeoutMs }: ForwardedRequest): Promise<UpstreamAnswer> {
  const outgoing: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && name !== 'host' && name !== 'content-length' && !HOP_BY_HOP_HEADERS.has(name)) outgoing[name] = value
  }
  if (body.length > 0 || method === 'POST' || method === 'PUT' || method === 'PATCH') outgoing['content-length'] = body.length
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (error: UpstreamError | undefined, answer?: UpstreamAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (error) reject(error)
      else resolve(answer!)
    }
    const request = send(target, { method, headers: outgoing }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => settle(undefined, { status: response.statusCode ?? 502, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }))
      response.on('error', (error) => settle(asUpstreamError(error)))
    })
    const timer = setTimeout(() => request.destroy(new UpstreamError('timeout', `no answer from ${target.origin} within ${timeoutMs} ms`)), timeoutMs)
    request.on('error', (error) => settle(asUpstreamError(error)))
    request.end(body)
  })
}

function asUpstreamError(error: Error): UpstreamError {
  if (error instanceof UpstreamError) return error
  return new UpstreamError('unreachable', (error as NodeJS.ErrnoException).code ?? error.message)
}
