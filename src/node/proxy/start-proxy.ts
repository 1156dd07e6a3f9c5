import type { Server } from 'node:http'
import type { RequestHandler } from 'msw'
import { maskAuthorization } from '../../core/auth/mask-key.js'
import { parseBearer } from '../../core/auth/parse-bearer.js'
import { redactUrl } from '../../core/auth/redact-url.js'
import type { PagesListener } from '../pages/create-pages-listener.js'
import type { RequestEntrySource } from '../pages/create-event-stream.js'
import type { ServerLimits } from '../server/server-limits.js'
import { startServer } from '../server/start-server.js'
import { createExchangeChecker } from '../verify/create-exchange-checker.js'
import type { createProxyLogger } from './create-proxy-logger.js'
import { createProxyAdmin } from './create-proxy-admin.js'
import { createProxyListener } from './create-proxy-listener.js'
import { createProxyRequestLog, type ProxyRequestLog } from './create-proxy-request-log.js'
import { createProxyStats, type ProxyStats } from './create-proxy-stats.js'
import { SOURCE_HEADER } from './source-header.js'

export interface StartProxyOptions {
  /** The upstream API base, e.g. `https://staging.animal-store.example/v1`. */
  upstream: string
  port: number
  host: string
  fallback: boolean
  upstreamTimeoutMs: number
  /** The sandbox's origin handlers (`sandbox.originHandlers`). */
  sandboxHandlers: RequestHandler[]
  adminToken?: string
  /**
   * The pages (front door, contract, reference, dashboard), given the proxy's origin and its
   * request log, which the dashboard's live list shows instead of the sandbox's.
   */
  pages?: (origin: string, requests: RequestEntrySource) => PagesListener
  /** Answers the request log keeps (`start`'s `--keep-requests`); 100 when not given. */
  keepRequests?: number
  /** Timeouts and sizes against slow or oversized clients, as for `start` (DEFAULT_SERVER_LIMITS). */
  limits?: Partial<ServerLimits>
  logger: ReturnType<typeof createProxyLogger>
  now: () => number
}

export interface RunningProxy {
  /** The proxy's API base, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  server: Server
  stats: ProxyStats
  requests: ProxyRequestLog
  close(): Promise<void>
}

/** Serves the proxy on the sandbox's one server (start-server.ts) until `close()`. */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const upstream = options.upstream.replace(/\/+$/, '')
  const stats = createProxyStats({ upstream, fallback: options.fallback, upstreamTimeoutMs: options.upstreamTimeoutMs })
  const checker = createExchangeChecker(new URL(upstream).pathname)
  await checker.warm()
  const requests = createProxyRequestLog(options.keepRequests ?? 100)
  const admin = options.adminToken === undefined ? undefined : createProxyAdmin({ token: options.adminToken, stats, requests, now: options.now })
  let pages: PagesListener | undefined
  const server = await startServer({
    port: options.port,
    host: options.host,
    ...(options.limits ? { limits: options.limits } : {}),
    listener: ({ origin, clientAddress }) => {
      pages = options.pages?.(origin, requests)
      return createProxyListener({ ...options, upstream, origin, admin, checker, stats, requests, pages, clientAddress })
    },
    // The proxy cannot know the upstream's quota: its refusals say only who answered.
    refusalHeaders: async () => ({ [SOURCE_HEADER]: 'sandbox' }),
    // The server's own refusals (TRACE, a missing Host, a target that is no URL) are logged and
    // listed like every answer of the proxy.
    onExchange: ({ method, url, status, durationMs, authorization }) => {
      const presented = parseBearer(authorization ?? null)
      const path = URL.canParse(url, 'http://proxy') ? redactUrl(url, presented === undefined ? [] : [presented]) : '(not a URL)'
      const key = maskAuthorization(authorization)
      options.logger.answer({ method, path, status, durationMs, key, source: 'sandbox' })
      const time = new Date(options.now()).toISOString()
      requests.record({ time, method, path, status, durationMs: Math.round(durationMs * 10) / 10, key, source: 'sandbox' })
    },
  })
  return {
    url: server.url,
    server: server.server,
    stats,
    requests,
    close: () => {
      // The dashboard's event streams never end by themselves.
      pages?.close()
      return server.close()
    },
  }
}
