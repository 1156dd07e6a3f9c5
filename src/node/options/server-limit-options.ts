import { type Command, Option } from 'commander'
import type { ServerLimits } from '../server/server-limits.js'
import { integerIn } from './parse-options.js'

/** The server's options of every command that serves (`start`, `run`, `proxy`), as commander parses them. */
export interface ServingOptions {
  port: number
  host: string
  headersTimeout?: number
  requestTimeout?: number
  keepAliveTimeout?: number
  shutdownGrace?: number
}

/** The hidden options that set the server's limits: the least each takes, the limit it sets, `start`'s variable for it. */
const LIMIT_OPTIONS = {
  headersTimeout: { flag: '--headers-timeout <ms>', min: 1, limit: 'headersTimeoutMs', variable: 'PETSTORE_SANDBOX_HEADERS_TIMEOUT' },
  requestTimeout: { flag: '--request-timeout <ms>', min: 1, limit: 'requestTimeoutMs', variable: 'PETSTORE_SANDBOX_REQUEST_TIMEOUT' },
  keepAliveTimeout: { flag: '--keep-alive-timeout <ms>', min: 1, limit: 'keepAliveTimeoutMs', variable: 'PETSTORE_SANDBOX_KEEP_ALIVE_TIMEOUT' },
  shutdownGrace: { flag: '--shutdown-grace <ms>', min: 0, limit: 'shutdownGraceMs', variable: 'PETSTORE_SANDBOX_SHUTDOWN_GRACE' },
} as const satisfies Record<Exclude<keyof ServingOptions, 'port' | 'host'>, { flag: string; min: number; limit: keyof ServerLimits; variable: string }>

/**
 * Adds the server's limits to a command, hidden from --help: for tests that play slow clients or
 * a stuck shutdown without waiting the real limits out (src/node/server/server-limits.ts).
 */
export function addServerLimitOptions(command: Command, { fromEnvironment }: { fromEnvironment: boolean }): Command {
  for (const { flag, min, variable } of Object.values(LIMIT_OPTIONS)) {
    const option = new Option(flag).argParser(integerIn(min, 3_600_000)).hideHelp()
    command.addOption(fromEnvironment ? option.env(variable) : option)
  }
  return command
}

/** The limits the options set; those not given keep their defaults (DEFAULT_SERVER_LIMITS). */
export function serverLimitsOf(options: ServingOptions): Partial<ServerLimits> {
  const limits: Partial<ServerLimits> = {}
  for (const [name, { limit }] of Object.entries(LIMIT_OPTIONS) as Array<[keyof typeof LIMIT_OPTIONS, { limit: keyof ServerLimits }]>) {
    const value = options[name]
    if (value !== undefined) limits[limit] = value
  }
  return limits
}
