import type { RequestHandler } from 'msw'
import type { Secrets } from '../../core/auth/create-masker.js'
import type { AnswerTail } from '../../core/pipeline/answer-tail.js'
import { createExchangeChecker } from '../verify/create-exchange-checker.js'
import { createForwardingHandler } from './create-forwarding-handler.js'
import type { ProxyStats } from './create-proxy-stats.js'
import type { Shadow } from './create-shadow.js'

export interface ProxyOptions {
  /** The upstream API base, e.g. `https://staging.animal-store.example/v1`. */
  upstream: string
  fallback: boolean
  upstreamTimeoutMs: number
  /** The sandbox's origin handlers, which answer what the proxy passes on. */
  sandboxHandlers: RequestHandler[]
  stats: ProxyStats
  tail: AnswerTail
  /** Real time, which the upstream's X-RateLimit-Reset is held to. */
  now: () => number
  secrets: () => Secrets
  /** With `--shadow`: handed every exchange the upstream answered (D42). */
  shadow?: Shadow | undefined
}

/** Creates `proxy`'s handlers for `start`'s server: the forwarding handler, then the sandbox's own (D25). */
export async function createProxy(options: ProxyOptions): Promise<RequestHandler[]> {
  const { fallback, upstreamTimeoutMs, stats, tail, now, shadow, secrets } = options
  const upstream = options.upstream.replace(/\/+$/, '')
  const checker = createExchangeChecker(new URL(upstream).pathname)
  await checker.warm()
  return [
    createForwardingHandler({
      upstream,
      fallback,
      upstreamTimeoutMs,
      tail,
      stats,
      checker,
      now,
      secrets,
      ...(shadow === undefined ? {} : { onExchange: shadow.offer }),
    }),
    ...options.sandboxHandlers,
  ]
}
