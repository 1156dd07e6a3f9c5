import { getResponse, type RequestHandler } from 'msw'
import { CLIENT_ADDRESS_HEADER } from '../../core/http/client-address.js'
import { JSON_CONTENT_TYPE } from '../../core/http/to-response.js'

/** A request the transport refuses before the handlers can see it. */
export interface Refusal {
  status: number
  code: string
  message: string
}

/** What to write back for a refusal: an Error body and the client's `X-RateLimit-*` headers. */
export interface RefusalAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * The answer to a request node:http or fetch cannot hand to the handlers (malformed, too slow,
 * a method fetch forbids): the same Error body as every other refusal, with the rate-limit
 * headers of the client's address. They come from the handlers' quota-reporting preflight
 * (OPTIONS on a known path, D16), which counts nothing, so a refused request spends no quota.
 *
 * @example
 * const answer = await refusalAnswer(handlers, origin, '127.0.0.1', { status: 400, code: 'invalid_request', message: 'Host is missing' })
 */
export async function refusalAnswer(handlers: RequestHandler[], origin: string, address: string, refusal: Refusal): Promise<RefusalAnswer> {
  const headers: Record<string, string> = {}
  try {
    const preflight = new Request(`${origin}/v1/pets`, { method: 'OPTIONS', headers: { [CLIENT_ADDRESS_HEADER]: address } })
    const response = await getResponse(handlers, preflight, { quiet: true })
    response?.headers.forEach((value, name) => {
      if (name.startsWith('x-ratelimit-')) headers[name] = value
    })
  } catch {
    // The Error body still goes out; only the quota headers are missing.
  }
  const body = JSON.stringify({ code: refusal.code, message: refusal.message, status: refusal.status })
  headers['content-type'] = JSON_CONTENT_TYPE
  headers['content-length'] = String(Buffer.byteLength(body))
  return { status: refusal.status, headers, body }
}
