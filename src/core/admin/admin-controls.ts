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

/** One configured key in the state summary. */
export interface KeySummary {
  key: string
  /** The key as logs show it (`sand…#1a2b`), until the dashboard is asked to reveal it. */
  masked: string
  plan: Plan
  perMinute: number
  perDay: number
  quota: QuotaStanding
  /** The key's scenario (D29), when it has one. */
  scenario?: string
}

/** What `sandbox.state()` and `GET /__sandbox/state` report, of one session. */
export interface StateSummary {
  /** The session: `default`, or the name `X-Sandbox-Session` gave (D34). */
  session: string
  /** The session's clock, ISO 8601. */
  now: string
  pets: { count: number; nextId: number }
  /** What a reset restores: the seed and how many pets it generates, or that they were given. */
  seeded: { seed: number; pets: number; source: 'generated' | 'given' }
  /** How far the clock is from its time source in ms, 0 when never moved (D20). */
  clockOffsetMs: number
  /** Tells whether `Prefer: code=<status>` is honoured (D30). */
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

/** What `GET /__sandbox/proxy` shows under `petstore-sandbox proxy` (the admin document's `ProxyState`). */
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
  /** Where the spec is silent and the upstream decided otherwise: no violation (D39). */
  differences: ProxyTally<LoggedDifference>
}

/** What `GET /__sandbox/shadow` shows under `proxy --shadow` (D42). */
export interface ShadowReport {
  /** Exchanges the upstream answered that the shadow was handed. */
  exchanges: number
  compared: number
  /** Left uncompared: the queue was full, or a body was too large or not kept whole. */
  dropped: number
  /** Differences beyond the groups the report holds. */
  unlisted: number
  differences: ShadowDifference[]
}

/** One group of the drift report: where the sandbox's answer differs from the upstream's and how often. */
export interface ShadowDifference {
  operation: string
  /** What differs: `status`, `body:code`, `body:order`, `body:field:createdAt`, `header:X-RateLimit-Remaining`. */
  aspect: string
  kind: 'spec' | 'decision' | 'behaviour'
  /** The decision the upstream took otherwise, for kind `decision` (`D8`). */
  decision?: string
  count: number
  upstream: string
  sandbox: string
  /** The group's first exchange, masked (D35). */
  example: { time: string; method: string; path: string; key?: string; upstreamStatus: number; sandboxStatus: number }
}

/** One session, as `GET /__sandbox/sessions` and `sandbox.sessions.list()` list it. */
export interface SessionSummary {
  name: string
  pets: { count: number; nextId: number }
  /** Counts this session's request-log entries this process keeps. */
  requests: number
  /** The session's clock, ISO 8601. */
  now: string
  /** When the session was made, by the default session's clock. */
  created: string
  /** When a request or a call last named it; absent for the default session, which is never dropped. */
  lastUsed?: string
  /** What `reset()` returns to: the start-up pets, another session's at a fork, or a capsule. */
  origin: 'start-up' | 'fork' | 'capsule'
  /** The session a fork was made from. */
  from?: string
  /** The keys bound to the session (D46), in the order they were made; `masked` as the request log shows each. */
  keys: Array<{ key: string; masked: string; plan: Plan; perMinute: number; perDay: number }>
}

/** The controls of one session the admin API has an operation for, held to `SessionControls` by the compiler. */
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

/** How `PUT /__sandbox/sessions/{name}` makes a session: the admin document's `SessionInit`. */
export type AdminSessionInit = Record<string, never> | { from: string } | { capsule: unknown } | { har: unknown }

/** The controls the admin API serves: a session's, the process's keys, and the sessions themselves (D34). */
export interface AdminControls {
  /** The default session's clock, which `/health` reports. */
  readonly clock: MovableClock
  /** Returns session `name`'s controls, making it as a request would; throws `SessionsNotServed` without sessions. */
  session(name: string | undefined): AdminSessionControls
  readonly apiKeys: SandboxApiKeys
  readonly sessions: {
    list(): Promise<SessionSummary[]>
    get(name: string): Promise<SessionSummary | undefined>
    /** Throws `UnknownSession` for a fork of a session there is none of. */
    put(name: string, init: AdminSessionInit): Promise<SessionSummary>
    delete(name: string): Promise<boolean>
    /** Binds a new key to session `name` (D46), making the session when absent. */
    addKey(name: string, init: unknown): Promise<BoundKey>
    deleteAll(options?: DeleteSessionsOptions): Promise<string[]>
    /** Returns session `name`'s capsule without making the session; undefined when there is none. */
    capsule(name: string): Promise<unknown>
  }
  /** Returns the secrets the request log masks, so an export's `?key=` shows a key as the log does. */
  secrets(): Secrets
  /** Returns the counts of a proxy in front (`GET /__sandbox/proxy`); without it that path is 404. */
  proxyState?(): ProxyState
  /** Returns the drift report of `proxy --shadow` (`GET /__sandbox/shadow`); without it that path is 404. */
  shadowReport?(): ShadowReport
}
