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
import type { LoggedDifference, LoggedViolation } from '../request-log/create-request-logger.js'
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

/** Findings of one kind: how many per promise, and the last ones kept. */
export interface ProxyTally<Finding extends LoggedViolation> {
  total: number
  byPromise: Record<string, number>
  /** The last findings, oldest first. */
  recent: Finding[]
}

/** What `GET /__sandbox/proxy` shows under `petstore-sandbox proxy` (ProxyState in fixtures/admin-openapi.yaml). */
export interface ProxyState {
  /** The upstream API base requests are forwarded to. */
  upstream: string
  fallback: boolean
  upstreamTimeoutMs: number
  /** Answers to /v1 requests, by who gave them. */
  answers: { upstream: number; sandbox: number }
  /** Requests the sandbox answered instead of the upstream, by reason. */
  fallbacks: { unreachable: number; timeout: number; missing: number }
  /** The promises of the spec the upstream broke (D39). */
  violations: ProxyTally<LoggedViolation>
  /** Where the spec is silent and the upstream decided otherwise than the sandbox: no violation (D39). */
  differences: ProxyTally<LoggedDifference>
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
  /** The counts of a proxy in front of the sandbox (`GET /__sandbox/proxy`); without them that path is 404, as under `start`. */
  proxyState?(): ProxyState
}
