import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RequestHandler } from 'msw'
import type { PagesListener } from '../pages/create-pages-listener.js'
import type { RequestEntrySource } from '../pages/create-event-stream.js'
import { createExchangeChecker } from '../verify/create-exchange-checker.js'
import type { AdminGate } from '../../core/admin/create-admin-gate.js'
import type { RequestLog } from '../../core/request-log/create-request-log.js'
import type { RequestLogger } from '../../core/request-log/create-request-logger.js'
import { createProxyAdmin } from './create-proxy-admin.js'
import { createProxyListener } from './create-proxy-listener.js'
import { createProxyStats, type ProxyStats } from './create-proxy-stats.js'

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

/** How long in-flight requests may take to finish once the proxy is closing. */
const SHUTDOWN_GRACE_MS = 5_000

/** Serves the proxy over node:http until `close()`. */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const upstream = options.upstream.replace(/\/+$/, '')
  const stats = createProxyStats({ upstream, fallback: options.fallback, upstreamTimeoutMs: options.upstreamTimeoutMs })
  const checker = createExchangeChecker(new URL(upstream).pathname)
  await checker.warm()
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
  const requests = options.requestLog
  const pages = options.pages?.(origin, { onRequest: requests.subscribe })
  const admin = options.adminGate === undefined ? undefined : createProxyAdmin({ gate: options.adminGate, stats, requests })
  server.on('request', createProxyListener({ ...options, upstream, origin, admin, checker, stats, requests, pages }))
  return {
    url: `${origin}/v1`,
    server,
    stats,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // The dashboard's event streams never end by themselves.
        pages?.close()
        const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS)
        server.close(() => {
          clearTimeout(cut)
          resolve()
        })
        server.closeIdleConnections()
      }),
  }
}
