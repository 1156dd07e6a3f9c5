import type { HttpHandler } from 'msw'
import type { SessionSummary, StateSummary } from '../admin/admin-controls.js'
import type { SandboxApiKeys } from '../auth/create-key-controls.js'
import type { ApiKey } from '../auth/key-config.js'
import type { BoundKey } from '../auth/create-bound-keys.js'
import type { Secrets } from '../auth/create-masker.js'
import type { Plan } from '../auth/plans.js'
import type { SandboxClock } from '../clock/create-clock.js'
import type { FaultOptions, ResolvedFaults } from '../faults/fault-config.js'
import type { Readiness } from '../probes/create-readiness.js'
import type { LogSelection, RequestLogEntry } from '../request-log/create-request-log.js'
import type { Har, HarSelection } from '../request-log/to-har.js'
import type { Capsule } from '../sessions/capsule.js'
import type { DeleteSessionsOptions } from '../sessions/session-lifecycle.js'
import type { RecordedHar } from '../learning/learn-capsule.js'
import type { SandboxScenarios } from '../scenarios/create-scenarios.js'
import type { Answer, Timing } from '../state/maybe-promise.js'
import type { QuotaChange, QuotaStanding } from '../state/rate-limit-backend.js'
import type { NewPet, Pet } from '../store/pet.js'

/**
 * Serves the Animal Store API as msw handlers, with controls to arrange its state.
 *
 * @example
 * const sandbox = createSandbox()
 * const server = setupServer(...sandbox.handlers)
 * beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
 * beforeEach(() => sandbox.reset())
 * afterAll(() => server.close())
 */
export interface Sandbox<Of extends Timing = 'now'> extends SessionControls<Of> {
  /** Lists the handlers for `setupServer` or `setupWorker`, claiming the API's paths only (D40). */
  readonly handlers: HttpHandler[]
  /** Answers a request directly, with no interception; one outside the API rejects. */
  readonly fetch: typeof fetch
  /** Lists the handlers claiming the whole origin, as `start` serves them. */
  readonly originHandlers: HttpHandler[]
  readonly keys: readonly ApiKey[]
  /** Returns what no log may show whole (D35, D46). */
  secrets(): Secrets
  readonly apiKeys: SandboxApiKeys
  /** Resolves once the seeded pets are stored; requests wait for it themselves. */
  ready(): Promise<void>
  readiness(): Readiness
  /** Closes a shared state's connection. */
  close(): Promise<void>
  /** Returns session `name`'s controls (D34). */
  session(name: string): Session<Of>
  readonly sessions: SandboxSessions
}

/** Offers the controls every session has. */
export interface SessionControls<Of extends Timing = 'now'> {
  readonly clock: SandboxClock<Of>
  /** Calls `listener` with each answered request, masked; returns the stop. */
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
  /** Returns the session to its origin (D34), keeping runtime keys (D22) and, unless `clock`, the clock. */
  reset(options?: SandboxResetOptions): Promise<void>
  readonly pets: SandboxPets<Of>
  readonly quota: SandboxQuota<Of>
  /** Reads and sets the injected faults; `set` starts the seeded draws over. */
  readonly faults: {
    get(): ResolvedFaults
    set(options: FaultOptions): Answer<ResolvedFaults, Of>
  }
  /** Returns the last answered requests that match, oldest first, masked. */
  requests(selection?: number | LogSelection): Answer<RequestLogEntry[], Of>
  /** Returns what `GET /__sandbox/state` shows. */
  state(): Promise<StateSummary>
  readonly scenarios: SandboxScenarios
  /** Returns the kept exchanges as HAR 1.2 (D35, D36). */
  har(options?: HarSelection): Har
  capsule(): Promise<Capsule>
}

/** Offers a named session's controls; its `fetch` sends `X-Sandbox-Session`. */
export interface Session<Of extends Timing = 'now'> extends SessionControls<Of> {
  readonly name: string
  readonly fetch: typeof fetch
  readonly keys: SessionKeys
}

/** Binds keys to a named session (D46). */
export interface SessionKeys {
  add(init: SessionKeyInit): Promise<BoundKey>
  list(): Promise<readonly BoundKey[]>
}

export interface SessionKeyInit {
  plan: Plan
  perMinute?: number
  perDay?: number
}

/** Serves the sessions, as `/__sandbox/sessions` does. */
export interface SandboxSessions {
  /** Lists every session: the default, then the most recently used. */
  list(): Promise<SessionSummary[]>
  get(name: string): Promise<SessionSummary | undefined>
  /** Makes or replaces session `name` (D41); its `reset()` returns there. */
  put(name: string, init?: SessionInit): Promise<SessionSummary>
  /** Deletes a named session (never `default`); false when there is none. */
  delete(name: string): Promise<boolean>
  /** Deletes the named sessions (those starting with `prefix`) and their log entries. */
  deleteAll(options?: DeleteSessionsOptions): Promise<string[]>
  /** Returns session `name`'s capsule, not making the session. */
  capsule(name: string): Promise<Capsule | undefined>
}

export type SessionInit = Record<string, never> | { from: string } | { capsule: Capsule } | { har: RecordedHar }

export interface SandboxResetOptions {
  /** Puts the clock back too. */
  clock?: boolean
}

/** Arranges the stored pets without HTTP or quota, checked against the contract. */
export interface SandboxPets<Of extends Timing = 'now'> {
  /** Returns every stored pet in id order; `[]` until `await sandbox.ready()`. */
  all(): Answer<Pet[], Of>
  get(id: number): Answer<Pet | undefined, Of>
  /** Stores a new pet as `POST /pets` does (D4, D5). */
  create(pet: NewPet): Promise<Pet>
  /** Stores `pet` under its own id. */
  put(pet: Pet): Promise<Pet>
}

/** Reads and arranges the keys' rate limits, counting no request. */
export interface SandboxQuota<Of extends Timing = 'now'> {
  get(key: string): Answer<QuotaStanding, Of>
  /** Sets what is left, and starts or lifts a ban. */
  set(key: string, change: QuotaChange): Answer<QuotaStanding, Of>
  /** Returns where a client address without a valid key stands (D16, D32). */
  ofAddress(address: string): Promise<QuotaStanding>
}

/** Shares its state with other processes; a read or move resolves once they all see it. */
export type SharedSandbox = Sandbox<'later'>
