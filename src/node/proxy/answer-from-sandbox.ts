import type { IncomingHttpHeaders } from 'node:http'
import { getResponse, type RequestHandler } from 'msw'
import { CLIENT_ADDRESS_HEADER } from '../../core/pipeline/admit.js'
import type { WrittenAnswer } from '../server/refusal-answer.js'
import { notForwarded } from './hop-by-hop-headers.js'

/** The sandbox's answer to a request the proxy already read whole; undefined for an injected dropped connection. */
export async function answerFromSandbox(
  handlers: RequestHandler[],
  request: { url: URL; method: string; headers: IncomingHttpHeaders; body: Buffer; clientAddress: string },
): Promise<WrittenAnswer | undefined> {
  const headers = new Headers()
  const skipped = notForwarded(request.headers.connection)
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || skipped.has(name) || name === CLIENT_ADDRESS_HEADER) continue
    headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  // The client address comes from the socket, never from what the client claims (D16).
  headers.set(CLIENT_ADDRESS_HEADER, request.clientAddress)
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  const fetchRequest = new Request(request.url, { method: request.method, headers, ...(hasBody ? { body: new Uint8Array(request.body) } : {}) })
  const response = await getResponse(handlers, fetchRequest, { quiet: true })
  if (response === undefined) throw new Error(`the sandbox's handlers left ${request.method} ${request.url.pathname} unanswered`)
  if (response.type === 'error') return undefined
  const written: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    written[name] = value
  })
  return { status: response.status, headers: written, body: Buffer.from(await response.arrayBuffer()) }
}
