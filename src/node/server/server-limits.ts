/** Bounds how long and how much a client may take (slowloris); times in ms. */
export interface ServerLimits {
  headersTimeoutMs: number
  requestTimeoutMs: number
  keepAliveTimeoutMs: number
  maxHeaderBytes: number
  /** Lets in-flight requests finish this long after `close()`. */
  shutdownGraceMs: number
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  shutdownGraceMs: 3_000,
}

export interface ServingOptions {
  port: number
  host: string
  headersTimeout?: number
  requestTimeout?: number
  keepAliveTimeout?: number
  shutdownGrace?: number
}

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
