import type { MovableClock } from '../clock/create-clock.js'
import type { MaybePromise } from '../state/maybe-promise.js'
import type { FaultOptions, ResolvedFaults } from '../faults/fault-config.js'
import type { QuotaChange } from '../state/rate-limit-backend.js'
import type { QuotaState } from '../state/rate-limit-backend.js'
import type { LogSelection, RequestLogEntry } from '../request-log/create-request-log.js'
import type { Plan } from '../auth/plans.js'
import type { SandboxApiKeys } from '../auth/create-key-controls.js'
import type { SandboxScenarios } from '../scenarios/create-scenarios.js'
import type { Har, HarSelection } from '../request-log/to-har.js'
import type { Secrets } from '../auth/create-masker.js'

/** One configured key in the state summary. */
export interface KeySummary {
  key: string
  /** The key as logs show it (`sand…#1a2b`): the dashboard shows this until asked to reveal. */
  masked: string
  plan: Plan
  perMinute: number
  perDay: number
  quota: QuotaState
  /** The key's scenario (D29), when it has one. */
  scenario?: string
}

/** What `sandbox.state()` and `GET /__sandbox/state` report. */
export interface StateSummary {
  /** The sandbox clock, ISO 8601. */
  now: string
  pets: { count: number; nextId: number }
  /** What a reset restores: the seed and how many pets it generates, or that the pets were given (a pets file). */
  seeded: { seed: number; pets: number; source: 'generated' | 'given' }
  /** How far the sandbox clock is from its time source (real time unless the sandbox was given `now`), in ms; 0 when never moved (D20). */
  clockOffsetMs: number
  /** Whether `Prefer: code=<status>` is honoured (D30): `--prefer`, `createSandbox({ prefer: true })`. */
  prefer: boolean
  keys: KeySummary[]
  faults: ResolvedFaults
  /** The scenarios a key can be put in, built-in first. */
  scenarios: Array<{ name: string; description: string }>
}

/** The controls the admin API serves; the sandbox object offers the same as methods. */
export interface AdminControls {
  readonly clock: MovableClock
  reset(options?: { clock?: boolean }): Promise<void>
  state(): Promise<StateSummary>
  readonly quota: {
    get(key: string): MaybePromise<QuotaState>
    set(key: string, change: QuotaChange): MaybePromise<QuotaState>
  }
  readonly faults: {
    get(): ResolvedFaults
    set(options: FaultOptions): MaybePromise<ResolvedFaults>
  }
  requests(selection?: number | LogSelection): MaybePromise<RequestLogEntry[]>
  readonly scenarios: SandboxScenarios
  har(options?: HarSelection): Har
  /** The keys in force and the admin token: what the request log masks, so an export's `?key=` shows a key as the log does. */
  secrets(): Secrets
  readonly apiKeys: SandboxApiKeys
}
