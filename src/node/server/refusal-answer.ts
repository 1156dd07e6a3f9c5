import type { Reply } from '../../core/http/reply.js'
import type { QuotaState } from '../../core/state/rate-limit-backend.js'

/** An answer ready to write: status, headers, body bytes. */
export interface WrittenAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/**
 * The bytes of an answer the Node side gives by itself, with no handler behind it: the server's
 * refusals of requests node:http or fetch cannot hand on (malformed, too slow, CONNECT, TRACE) and
 * its last-resort 500. The Error reply comes from the one tail (`AnswerTail.refuse`).
 *
 * @example
 * refusalAnswer(tail.refuse(undefined, new HttpError(400, ErrorCode.invalidRequest, 'Host is missing'), new Headers()))
 */
export function refusalAnswer(reply: Reply): WrittenAnswer {
  const body = Buffer.from(JSON.stringify(reply.body))
  const written: Record<string, string> = {}
  reply.headers.forEach((value, name) => {
    written[name] = value
  })
  written['content-length'] = String(body.length)
  return { status: reply.status, headers: written, body }
}

/**
 * The `X-RateLimit-*` headers of a quota, for a refusal that spends none: a request refused
 * before it could be read names the quota of its client's address (D16, D24).
 */
export function rateLimitHeaders(quota: QuotaState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(quota.limit),
    'x-ratelimit-remaining': String(quota.remaining),
    'x-ratelimit-reset': String(quota.reset),
  }
}
