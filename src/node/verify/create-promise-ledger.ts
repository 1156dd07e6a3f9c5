import { describeExchange } from './describe-exchange.js'
import type { Exchange } from './exchange.js'
import type { PromiseOutcome, VerifyReport } from './verify-report.js'
import { VERIFY_PROMISES } from './verify-promises.js'

/** Failures kept per promise for the report; the count says how many there were in all. */
const DETAILS_KEPT = 3

/** Collects failures and skips per promise while verify runs; a failure outranks a skip. */
export function createPromiseLedger(key: string) {
  const failures = new Map<string, PromiseOutcome['failures']>()
  // Distinct exchanges per promise: the scenario and the per-answer check may both flag one.
  const seen = new Map<string, Set<Exchange>>()
  const skips = new Map<string, string>()

  return {
    fail(promise: string, expected: string, exchange: Exchange): void {
      const exchanges = seen.get(promise) ?? new Set<Exchange>()
      if (exchanges.has(exchange)) return
      seen.set(promise, exchanges.add(exchange))
      const details = failures.get(promise) ?? []
      const detail = { ...describeExchange(exchange, key), expected }
      if (details.length < DETAILS_KEPT && !details.some((kept) => kept.request === detail.request && kept.expected === expected)) details.push(detail)
      failures.set(promise, details)
    },
    skip(promise: string, reason: string): void {
      skips.set(promise, reason)
    },
    report(run: Omit<VerifyReport, 'promises' | 'passed' | 'failed' | 'skipped'>): VerifyReport {
      const promises: PromiseOutcome[] = VERIFY_PROMISES.map(({ id, title }) => {
        const failureCount = seen.get(id)?.size ?? 0
        if (failureCount > 0) return { id, title, outcome: 'failed', failures: failures.get(id)!, failureCount }
        const reason = skips.get(id)
        return reason === undefined
          ? { id, title, outcome: 'passed', failures: [], failureCount }
          : { id, title, outcome: 'skipped', reason, failures: [], failureCount }
      })
      const count = (outcome: PromiseOutcome['outcome']) => promises.filter((promise) => promise.outcome === outcome).length
      return { ...run, promises, passed: count('passed'), failed: count('failed'), skipped: count('skipped') }
    },
  }
}
