import type { LoggedViolation } from '../../core/request-log/create-request-logger.js'

export type FallbackReason = 'unreachable' | 'timeout' | 'missing'

/** How many violations the admin API keeps to show; the counts cover them all. */
const RECENT_KEPT = 50

/** The proxy's counters: answers by source, fallbacks by reason, violations per promise. */
export function createProxyStats(settings: { upstream: string; fallback: boolean; upstreamTimeoutMs: number }) {
  const answers = { upstream: 0, sandbox: 0 }
  const fallbacks: Record<FallbackReason, number> = { unreachable: 0, timeout: 0, missing: 0 }
  const byPromise: Record<string, number> = {}
  const recent: LoggedViolation[] = []
  let total = 0

  return {
    answered(source: 'upstream' | 'sandbox'): void {
      answers[source]++
    },
    fellBack(reason: FallbackReason): void {
      fallbacks[reason]++
    },
    violated(violation: LoggedViolation): void {
      total++
      byPromise[violation.promise] = (byPromise[violation.promise] ?? 0) + 1
      recent.push(violation)
      if (recent.length > RECENT_KEPT) recent.shift()
    },
    /** What `GET /__sandbox/proxy` shows (fixtures/admin-openapi.yaml, ProxyState). */
    snapshot() {
      return { ...settings, answers: { ...answers }, fallbacks: { ...fallbacks }, violations: { total, byPromise: { ...byPromise }, recent: [...recent] } }
    },
  }
}

export type ProxyStats = ReturnType<typeof createProxyStats>
