import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RequestHandler } from 'msw'
import { createRequestListener, type ExchangeRecord } from './create-request-listener.js'

export interface StartServerOptions {
  handlers: RequestHandler[]
  port: number
  host: string
  onExchange?: (record: ExchangeRecord) => void
}

export interface RunningServer {
  /** The API's base address, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  port: number
  server: Server
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>
}

/** Serves sandbox handlers over node:http until `close()`. */
export async function startServer({ handlers, port, host, onExchange }: StartServerOptions): Promise<RunningServer> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const origin = `http://${hostForUrl}:${address.port}`
  server.on('request', createRequestListener(handlers, { origin, ...(onExchange ? { onExchange } : {}) }))

  return {
    url: `${origin}/v1`,
    port: address.port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
  }
}
