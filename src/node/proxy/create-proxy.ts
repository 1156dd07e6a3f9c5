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
  /** The sandbox's origin handlers (`sandbox.originHandlers`), which answer what the proxy passes on. */
  sandboxHandlers: RequestHandler[]
  /** Where the proxy counts (create-proxy-stats.ts), which the sandbox's admin API shows. */
  stats: ProxyStats
  /** Ends every answer over the sandbox's request log, whoever gave it (answer-tail.ts). */
  tail: AnswerTail
  /** Dates the upstream's answers in real time, which its X-RateLimit-Reset is held to. */
  now: () => number
  /** The keys in force and the admin token (create-masker.ts). */
  secrets: () => Secrets
  /** With `--shadow`: the shadow, handed every exchange the upstream answered (D42). */
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
