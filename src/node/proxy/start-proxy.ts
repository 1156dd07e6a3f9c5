import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RequestHandler } from 'msw'
import type { PagesListener } from '../pages/create-pages-listener.js'
import { createExchangeChecker } from '../verify/create-exchange-checker.js'
import type { createProxyLogger } from './create-proxy-logger.js'
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
  adminToken?: string
  /** The pages (front door, contract, reference, dashboard), given the proxy's origin. */
  pages?: (origin: string) => PagesListener
  logger: ReturnType<typeof createProxyLogger>
  now: () => number
}

export interface RunningProxy {
  /** The proxy's API base, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  server: Server
  stats: ProxyStats
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
  const pages = options.pages?.(origin)
  server.on('request', createProxyListener({ ...options, upstream, origin, adminToken: options.adminToken, checker, stats, pages }))
  return {
    url: `${origin}/v1`,
    server,
    stats,
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
