import { createMasker } from '../../core/auth/create-masker.js'
import type { Exchange, ExchangeChecker } from '../verify/create-exchange-checker.js'
import type { LoggedViolation, RequestLogger } from '../../core/request-log/create-request-logger.js'
import { describeSource, VERIFY_PROMISES } from '../verify/promises.js'
import type { ProxyStats } from './create-proxy-stats.js'

export interface ViolationReporting {
  checker: ExchangeChecker
  stats: ProxyStats
  logger: RequestLogger
}

// The decisions behind each promise that is a decision, not the spec's word (verify/promises.ts).
const DECIDED = new Map(VERIFY_PROMISES.flatMap(({ id, source }) => (source.kind === 'decision' ? [[id, describeSource(source)] as const] : [])))

/**
 * Checks an upstream answer already sent on, and counts and logs what it finds: a broken promise
 * of the spec as a violation, an open point decided otherwise than the sandbox as a difference
 * (docs/decisions.md#d39). A failure of the check itself is logged and goes no further: the
 * client has its answer whatever the checker does.
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
      const decisions = DECIDED.get(violation.promise)
      if (decisions === undefined) {
        stats.violated(entry)
        logger.violation(entry)
      } else {
        stats.differed({ ...entry, decisions })
        logger.difference({ ...entry, decisions })
      }
    }
  } catch (error) {
    logger.problem(`could not check ${shown.method} ${shown.path}: ${(error as Error).message}`)
  }
}
