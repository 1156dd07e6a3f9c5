import type { LoggedDifference, LoggedViolation } from '../../core/request-log/create-request-logger.js'

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

/**
 * The proxy's counters: answers by source, fallbacks by reason, and per promise the upstream's
 * violations of the spec apart from the open points it decided otherwise than the sandbox
 * (docs/decisions.md#d39).
 */
export function createProxyStats(settings: { upstream: string; fallback: boolean; upstreamTimeoutMs: number }) {
  const answers = { upstream: 0, sandbox: 0 }
  const fallbacks: Record<FallbackReason, number> = { unreachable: 0, timeout: 0, missing: 0 }
  const violations = createTally<LoggedViolation>()
  const differences = createTally<LoggedDifference>()

  return {
    answered(source: 'upstream' | 'sandbox'): void {
      answers[source]++
    },
    fellBack(reason: FallbackReason): void {
      fallbacks[reason]++
    },
    /** A promise of the spec the upstream broke. */
    violated: violations.add,
    /** An open point of the spec the upstream decided otherwise than the sandbox: no violation. */
    differed: differences.add,
    /** What `GET /__sandbox/proxy` shows (fixtures/admin-openapi.yaml, ProxyState). */
    snapshot() {
      return { ...settings, answers: { ...answers }, fallbacks: { ...fallbacks }, violations: violations.snapshot(), differences: differences.snapshot() }
    },
  }
}

export type ProxyStats = ReturnType<typeof createProxyStats>
