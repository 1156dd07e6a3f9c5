import type { Reply } from '../../core/http/reply.js'
import { writtenHeaders } from '../../core/http/wire-headers.js'
import type { QuotaStanding } from '../../core/state/rate-limit-backend.js'

export interface WrittenAnswer {
  status: number
  headers: Record<string, string | string[]>
  body: Buffer
}

export function refusalAnswer(reply: Reply): WrittenAnswer {
  const body = Buffer.from(JSON.stringify(reply.body))
  const written = writtenHeaders(reply.headers)
  written['content-length'] = String(body.length)
  return { status: reply.status, headers: written, body }
}

/** Returns a quota's `X-RateLimit-*` headers (D16). */
export function rateLimitHeaders(quota: QuotaStanding): Record<string, string> {
  return {
    'x-ratelimit-limit': String(quota.limit),
    'x-ratelimit-remaining': String(quota.remaining),
    'x-ratelimit-reset': String(quota.reset),
  }
}
