import type { SandboxClock } from '../clock/create-clock.js'
import type { FaultOptions, ResolvedFaults } from '../faults/fault-config.js'
import type { QuotaChange } from '../rate-limit/create-rate-limiter.js'
import type { QuotaState } from '../rate-limit/create-rate-limiter.js'
import type { RequestLogEntry } from '../request-log/create-request-log.js'
import type { Plan } from '../auth/plans.js'

/** One configured key in the state summary. */
export interface KeySummary {
  key: string
  plan: Plan
  quota: QuotaState
}

/** What `sandbox.state()` and `GET /__sandbox/state` report. */
export interface StateSummary {
  /** The sandbox clock, ISO 8601. */
  now: string
  pets: { count: number; nextId: number }
  keys: KeySummary[]
  faults: ResolvedFaults
}

/** The controls the admin API serves; the sandbox object offers the same as methods. */
export interface AdminControls {
  readonly clock: SandboxClock
  reset(options?: { clock?: boolean }): Promise<void>
  state(): Promise<StateSummary>
  readonly quota: {
    get(key: string): QuotaState
    set(key: string, change: QuotaChange): QuotaState
  }
  readonly faults: {
    get(): ResolvedFaults
    set(options: FaultOptions): ResolvedFaults
  }
  requests(limit?: number): RequestLogEntry[]
}
