/**
 * How long and how much node:http lets a client take, so slow or oversized clients cannot hold
 * the sandbox's sockets (slowloris) or memory. All times in milliseconds.
 */
export interface ServerLimits {
  /** Time allowed to send the whole request head; a slower client gets 408 and is cut off. */
  headersTimeoutMs: number
  /** Time allowed to send the whole request, body included. */
  requestTimeoutMs: number
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number
  /** Largest request head in bytes (request line and headers); larger gets 431. */
  maxHeaderBytes: number
  /** After SIGTERM/`close()`, how long in-flight requests get before their connections are cut. */
  shutdownGraceMs: number
}

/**
 * The defaults: generous for a real client on loopback or a LAN, short enough that a stalled
 * client is gone within seconds. `shutdownGraceMs` keeps a graceful stop under 5 s.
 *
 * @example
 * await startServer({ handlers, port: 0, host: '127.0.0.1', limits: { headersTimeoutMs: 1000 } })
 */
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  shutdownGraceMs: 3_000,
}
