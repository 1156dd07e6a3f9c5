import type { Server } from 'node:http'
import type { RequestHandler } from 'msw'
import type { AdminGate } from '../../core/admin/create-admin-gate.js'
import type { RequestLog } from '../../core/request-log/create-request-log.js'
import type { RequestLogger } from '../../core/request-log/create-request-logger.js'
import type { PagesListener } from '../pages/create-pages-listener.js'
import type { RequestEntrySource } from '../pages/create-event-stream.js'
import type { ServerLimits } from '../server/server-limits.js'
import { startServer } from '../server/start-server.js'
import { createExchangeChecker } from '../verify/create-exchange-checker.js'
import type { Secrets } from '../../core/auth/create-masker.js'
import { sandboxHar } from '../../core/sandbox/sandbox-har.js'
import { createProxyAdmin, type ProxyAdminOptions } from './create-proxy-admin.js'
import { createProxyListener } from './create-proxy-listener.js'
import { createProxyStats, type ProxyStats } from './create-proxy-stats.js'
import { SOURCE_HEADER } from './upstream-headers.js'

export interface StartProxyOptions {
  /** The upstream API base, e.g. `https://staging.animal-store.example/v1`. */
  upstream: string
  port: number
  host: string
  fallback: boolean
  upstreamTimeoutMs: number
  /** The sandbox's origin handlers (`sandbox.originHandlers`). */
  sandboxHandlers: RequestHandler[]
  /** The process's one admin gate, shared with the sandbox's admin API and the event stream; none without an admin token. */
  adminGate?: AdminGate
  /**
   * The pages (front door, contract, reference, dashboard), given the proxy's origin and its
   * request log, which the dashboard's live list shows instead of the sandbox's.
   */
  pages?: (origin: string, requests: RequestEntrySource) => PagesListener
  /** Where every answer of the proxy is written, whoever gave it (the stdout log reads it too). */
  requestLog: RequestLog
  /** What the HAR of that log masks (`GET /__sandbox/requests.har`): the sandbox's keys in force and the admin token. */
  harMasks: () => Secrets
  /** Timeouts and sizes against slow or oversized clients, as for `start` (DEFAULT_SERVER_LIMITS). */
  limits?: Partial<ServerLimits>
  logger: RequestLogger
  now: () => number
}

export interface RunningProxy {
  /** The proxy's API base, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  server: Server
  stats: ProxyStats
  requests: RequestLog
  close(): Promise<void>
}

/** Serves the proxy on the sandbox's one server (start-server.ts) until `close()`. */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const upstream = options.upstream.replace(/\/+$/, '')
  const stats = createProxyStats({ upstream, fallback: options.fallback, upstreamTimeoutMs: options.upstreamTimeoutMs })
  const checker = createExchangeChecker(new URL(upstream).pathname)
  await checker.warm()
  const requests = options.requestLog
  let pages: PagesListener | undefined
  const server = await startServer({
    port: options.port,
    host: options.host,
    ...(options.limits ? { limits: options.limits } : {}),
    listener: ({ origin, clientAddress }) => {
      pages = options.pages?.(origin, { onRequest: requests.subscribe })
      const gate = options.adminGate
      const har: ProxyAdminOptions['har'] = (selection = {}) => sandboxHar(requests, selection, options.harMasks(), origin)
      const admin = gate === undefined ? undefined : createProxyAdmin({ gate, stats, requests, har })
      return createProxyListener({ ...options, upstream, origin, admin, checker, stats, requests, pages, clientAddress })
    },
    // The proxy cannot know the upstream's quota: its refusals say only who answered.
    refusalHeaders: async () => ({ [SOURCE_HEADER]: 'sandbox' }),
    // The server's own refusals (TRACE, a missing Host, a target that is no URL) are logged and
    // listed like every answer of the proxy.
    requestLog: { log: requests, now: options.now, source: 'sandbox' },
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
