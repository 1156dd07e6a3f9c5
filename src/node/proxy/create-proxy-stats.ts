import type { ProxyState } from '../../core/admin/admin-controls.js'
import type { LoggedDifference, LoggedViolation, RequestLogger } from '../../core/request-log/create-request-logger.js'

export type FallbackReason = 'unreachable' | 'timeout' | 'missing'

/** How many findings of each kind the admin API keeps to show; the counts cover them all. */
const RECENT_KEPT = 50

/** Findings of one kind: a count per promise, and the last ones kept to show. */
function createTally<Finding extends LoggedViolation>() {
  const byPromise: Record<string, number> = {}
  const recent: Finding[] = []
  let total = 0
  return {
    add(finding: Finding): void {
      total++
      byPromise[finding.promise] = (byPromise[finding.promise] ?? 0) + 1
      recent.push(finding)
      if (recent.length > RECENT_KEPT) recent.shift()
    },
    snapshot: () => ({ total, byPromise: { ...byPromise }, recent: [...recent] }),
  }
}

/** Who hears of each finding as it is counted: the stdout log (create-request-logger.ts). */
export type FindingWatcher = Pick<RequestLogger, 'violation' | 'difference' | 'problem'>

/** Creates the proxy's counters: answers by source, fallbacks by reason, violations and differences (D39). */
export function createProxyStats(settings: {
  upstream: string
  fallback: boolean
  upstreamTimeoutMs: number
}): ProxyStats {
  const answers = { upstream: 0, sandbox: 0 }
  const fallbacks: Record<FallbackReason, number> = { unreachable: 0, timeout: 0, missing: 0 }
  const violations = createTally<LoggedViolation>()
  const differences = createTally<LoggedDifference>()
  const watchers = new Set<FindingWatcher>()

  return {
    answered(source) {
      answers[source]++
    },
    fellBack(reason) {
      fallbacks[reason]++
    },
    violated(violation) {
      violations.add(violation)
      for (const watcher of watchers) watcher.violation(violation)
    },
    differed(difference) {
      differences.add(difference)
      for (const watcher of watchers) watcher.difference(difference)
    },
    problem(message) {
      for (const watcher of watchers) watcher.problem(message)
    },
    watch(watcher) {
      watchers.add(watcher)
    },
    snapshot() {
      return {
        ...settings,
        answers: { ...answers },
        fallbacks: { ...fallbacks },
        violations: violations.snapshot(),
        differences: differences.snapshot(),
      }
    },
  }
}

export interface ProxyStats {
  answered(source: 'upstream' | 'sandbox'): void
  fellBack(reason: FallbackReason): void
  /** A promise of the spec the upstream broke. */
  violated(violation: LoggedViolation): void
  /** An open point of the spec the upstream decided otherwise than the sandbox: no violation. */
  differed(difference: LoggedDifference): void
  /** A check that could not run; the answer itself was sent. */
  problem(message: string): void
  watch(watcher: FindingWatcher): void
  /** What `GET /__sandbox/proxy` shows (fixtures/admin-openapi.yaml). */
  snapshot(): ProxyState
}
