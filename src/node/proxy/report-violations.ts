import { createMasker } from '../../core/auth/create-masker.js'
import type { Exchange, ExchangeChecker } from '../verify/create-exchange-checker.js'
import type { RequestLogger } from '../../core/request-log/create-request-logger.js'
import type { LoggedViolation } from '../../core/request-log/create-request-logger.js'
import type { ProxyStats } from './create-proxy-stats.js'

export interface ViolationReporting {
  checker: ExchangeChecker
  stats: ProxyStats
  logger: RequestLogger
}

/**
 * Checks an upstream answer already sent on, and counts and logs what it breaks. A failure of the
 * check itself is logged and goes no further: the client has its answer whatever the checker does.
 */
export async function reportViolations(
  { checker, stats, logger }: ViolationReporting,
  exchange: Exchange,
  shown: Pick<LoggedViolation, 'method' | 'path' | 'status' | 'key'>,
  secrets: string[],
): Promise<void> {
  try {
    for (const violation of await checker.check(exchange)) {
      const entry = {
        time: new Date(exchange.receivedAt).toISOString(),
        promise: violation.promise,
        expected: createMasker({ keys: secrets }).text(violation.expected),
        ...shown,
      }
      stats.violated(entry)
      logger.violation(entry)
    }
  } catch (error) {
    logger.problem(`could not check ${shown.method} ${shown.path}: ${(error as Error).message}`)
  }
}
