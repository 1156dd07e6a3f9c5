import type { MovableClock } from '../clock/create-clock.js'
import type { MaybePromise } from '../state/maybe-promise.js'
import type { FaultOptions, ResolvedFaults } from '../faults/fault-config.js'
import type { QuotaChange } from '../state/rate-limit-backend.js'
import type { QuotaStanding } from '../state/rate-limit-backend.js'
import type { LogSelection, RequestLogEntry } from '../request-log/create-request-log.js'
import type { Plan } from '../auth/plans.js'
import type { SandboxApiKeys } from '../auth/create-key-controls.js'
import type { SandboxScenarios } from '../scenarios/create-scenarios.js'
import type { Har, HarSelection } from '../request-log/to-har.js'
import type { LoggedDifference, LoggedViolation } from '../request-log/create-request-logger.js'
import type { Secrets } from '../auth/create-masker.js'
import type { DeleteSessionsOptions } from '../sessions/session-lifecycle.js'
import type { BoundKey } from '../auth/create-bound-keys.js'

export interface KeySummary {
  key: string
  masked: string
  plan: Plan
  perMinute: number
  perDay: number
  quota: QuotaStanding
  /** D29. */
  scenario?: string
}

/** Answers `GET /__sandbox/state` for one session. */
export interface StateSummary {
  session: string
  now: string
  pets: { count: number; nextId: number }
  seeded: { seed: number; pets: number; source: 'generated' | 'given' }
  clockOffsetMs: number
  /** Tells whether `Prefer: code=` is honoured (D30). */
  prefer: boolean
  keys: KeySummary[]
  faults: ResolvedFaults
  scenarios: Array<{ name: string; description: string }>
}

export interface ProxyTally<Finding extends LoggedViolation> {
  total: number
  byPromise: Record<string, number>
  recent: Finding[]
}

/** Answers `GET /__sandbox/proxy`. */
export interface ProxyState {
  upstream: string
  fallback: boolean
  upstreamTimeoutMs: number
  answers: { upstream: number; sandbox: number }
  /** Counts the sandbox's answers instead, by reason. */
  fallbacks: { unreachable: number; timeout: number; missing: number }
  violations: ProxyTally<LoggedViolation>
  /** D39. */
  differences: ProxyTally<LoggedDifference>
}

/** Answers `GET /__sandbox/shadow` under `proxy --shadow` (D42). */
export interface ShadowReport {
  exchanges: number
  compared: number
  /** Counts exchanges left uncompared. */
  dropped: number
  /** Counts differences beyond the groups listed. */
  unlisted: number
  differences: ShadowDifference[]
}

/** Groups the exchanges where sandbox and upstream differ. */
export interface ShadowDifference {
  operation: string
  /** Names what differs: `status`, `body:order`, `header:<name>`. */
  aspect: string
  kind: 'spec' | 'decision' | 'behaviour'
  decision?: string
  count: number
  upstream: string
  sandbox: string
  example: { time: string; method: string; path: string; key?: string; upstreamStatus: number; sandboxStatus: number }
}

/** Lists a session in `GET /__sandbox/sessions`. */
export interface SessionSummary {
  name: string
  pets: { count: number; nextId: number }
  /** Counts the log entries this process keeps. */
  requests: number
  now: string
  /** Is by the default session's clock. */
  created: string
  /** Is absent for the default session, never dropped. */
  lastUsed?: string
  origin: 'start-up' | 'fork' | 'capsule'
  from?: string
  /** Lists the bound keys (D46). */
  keys: Array<{ key: string; masked: string; plan: Plan; perMinute: number; perDay: number }>
}

/** Holds the session controls the admin API serves. */
export interface AdminSessionControls {
  readonly clock: MovableClock
  reset(options?: { clock?: boolean }): Promise<void>
  state(): Promise<StateSummary>
  readonly quota: {
    get(key: string): MaybePromise<QuotaStanding>
    set(key: string, change: QuotaChange): MaybePromise<QuotaStanding>
  }
  readonly faults: {
    get(): ResolvedFaults
    set(options: FaultOptions): MaybePromise<ResolvedFaults>
  }
  requests(selection?: number | LogSelection): MaybePromise<RequestLogEntry[]>
  readonly scenarios: SandboxScenarios
  har(options?: HarSelection): Har
}

/** Says how `PUT /__sandbox/sessions/{name}` makes a session. */
export type AdminSessionInit = Record<string, never> | { from: string } | { capsule: unknown } | { har: unknown }

/** Holds what the admin API serves (D34). */
export interface AdminControls {
  readonly clock: MovableClock
  /** Makes the session as a request would. */
  session(name: string | undefined): AdminSessionControls
  readonly apiKeys: SandboxApiKeys
  readonly sessions: {
    list(): Promise<SessionSummary[]>
    get(name: string): Promise<SessionSummary | undefined>
    put(name: string, init: AdminSessionInit): Promise<SessionSummary>
    delete(name: string): Promise<boolean>
    /** Makes the session when absent (D46). */
    addKey(name: string, init: unknown): Promise<BoundKey>
    deleteAll(options?: DeleteSessionsOptions): Promise<string[]>
    /** Makes no session. */
    capsule(name: string): Promise<unknown>
  }
  /** Lets an export's `?key=` mask as the log does. */
  secrets(): Secrets
  /** Is absent, and the path 404, outside a proxy. */
  proxyState?(): ProxyState
  /** Is absent, and the path 404, outside a shadow. */
  shadowReport?(): ShadowReport
}
