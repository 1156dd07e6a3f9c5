/** Bounds how long and how much a client may take, against slowloris; times in ms. */
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

/** The defaults: generous on a LAN, a stalled client gone within seconds, a graceful stop under 5 s. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  shutdownGraceMs: 3_000,
}

/** The server's options of every command that serves (`start`, `run`, `proxy`), as commander parses them. */
export interface ServingOptions {
  port: number
  host: string
  headersTimeout?: number
  requestTimeout?: number
  keepAliveTimeout?: number
  shutdownGrace?: number
}

/** Lists the hidden options of the limits: the least each takes, the limit, `start`'s variable. */
export const LIMIT_OPTIONS = {
  headersTimeout: {
    flag: '--headers-timeout <ms>',
    min: 1,
    limit: 'headersTimeoutMs',
    variable: 'PETSTORE_SANDBOX_HEADERS_TIMEOUT',
  },
  requestTimeout: {
    flag: '--request-timeout <ms>',
    min: 1,
    limit: 'requestTimeoutMs',
    variable: 'PETSTORE_SANDBOX_REQUEST_TIMEOUT',
  },
  keepAliveTimeout: {
    flag: '--keep-alive-timeout <ms>',
    min: 1,
    limit: 'keepAliveTimeoutMs',
    variable: 'PETSTORE_SANDBOX_KEEP_ALIVE_TIMEOUT',
  },
  shutdownGrace: {
    flag: '--shutdown-grace <ms>',
    min: 0,
    limit: 'shutdownGraceMs',
    variable: 'PETSTORE_SANDBOX_SHUTDOWN_GRACE',
  },
} as const satisfies Record<
  Exclude<keyof ServingOptions, 'port' | 'host'>,
  { flag: string; min: number; limit: keyof ServerLimits; variable: string }
>

/** The limits the options set; those not given keep their defaults (DEFAULT_SERVER_LIMITS). */
export function serverLimitsOf(options: ServingOptions): Partial<ServerLimits> {
  const limits: Partial<ServerLimits> = {}
  for (const [name, { limit }] of Object.entries(LIMIT_OPTIONS) as Array<
    [keyof typeof LIMIT_OPTIONS, { limit: keyof ServerLimits }]
  >) {
    const value = options[name]
    if (value !== undefined) limits[limit] = value
  }
  return limits
}
