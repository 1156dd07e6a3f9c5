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
 * The msw handlers of the Animal Store API, their state, and the controls to arrange it without HTTP.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSandbox } from 'petstore-sandbox'
 *
 * const sandbox = createSandbox()
 * const server = setupServer(...sandbox.handlers)
 * beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
 * beforeEach(() => sandbox.reset())
 * afterAll(() => server.close())
 */
export interface Sandbox<Of extends Timing = 'now'> extends SessionControls<Of> {
  /**
   * The API's msw handlers for `setupServer` or `setupWorker`, claiming the API's own paths only (D40).
   *
   * @example
   * const server = setupServer(...sandbox.handlers)       // msw/node
   * const worker = setupWorker(...sandbox.handlers)       // msw/browser
   */
  readonly handlers: HttpHandler[]
  /**
   * A `fetch` the sandbox answers directly, with no interception; a request outside the API rejects.
   *
   * @example
   * const client = createClient<paths>({ baseUrl: 'http://api.test/v1', fetch: sandbox.fetch })
   * const { data } = await client.GET('/pets', { headers: { Authorization: 'Bearer sandbox-free-key' } })
   */
  readonly fetch: typeof fetch
  /**
   * The handlers claiming the whole origin, as `petstore-sandbox start` serves them.
   *
   * @example
   * const response = await getResponse(sandbox.originHandlers, request)
   */
  readonly originHandlers: HttpHandler[]
  /**
   * The keys in force with their limits, as `apiKeys` changed them.
   *
   * @example
   * sandbox.keys.find((key) => key.plan === 'pro')?.perMinute   // 300
   */
  readonly keys: readonly ApiKey[]
  /**
   * Returns what no log may show whole (D35): keys in force and bound (D46), and the admin token.
   *
   * @example
   * const requestLog = createRequestLog(100, sandbox.secrets)
   */
  secrets(): Secrets
  /** Add a key, change its plan, revoke it, at runtime (the admin API's `/keys`). */
  readonly apiKeys: SandboxApiKeys
  /**
   * Resolves once the seeded pets are in the store; requests wait for it by themselves.
   *
   * @example
   * await sandbox.ready()
   * sandbox.pets.all().length   // 50
   */
  ready(): Promise<void>
  /**
   * Tells whether the sandbox can serve now, and why not, as `GET /readyz` does.
   *
   * @example
   * sandbox.readiness()   // { ready: false, checks: [{ name: 'store', ready: false, reason: 'seeding the pets' }] }
   */
  readiness(): Readiness
  /** Lets go of the state: closes a shared state's connection; nothing to do for the sandbox's own. */
  close(): Promise<void>
  /**
   * Returns session `name`'s controls, made on first use as a request would (D34); `default` is the sandbox's own.
   *
   * @example
   * const worker = sandbox.session('worker-1')
   * await worker.pets.create({ name: 'Only here', categoryId: 1 })
   * await worker.fetch('http://api.test/v1/pets', { headers: { Authorization: 'Bearer sandbox-free-key' } })
   */
  session(name: string): Session<Of>
  /** The named sessions: list them, make or replace one (fresh, a fork of another), delete one. */
  readonly sessions: SandboxSessions
}

/** The controls every session offers, the default one and each named one; the admin API's per-session calls. */
export interface SessionControls<Of extends Timing = 'now'> {
  /**
   * The sandbox clock (D20), which windows, bans and the sunset read; it keeps running once moved.
   *
   * @example
   * sandbox.clock.set('2030-12-05T00:00:00Z')   // getPet answers 410 from now on
   * sandbox.clock.advance(60_000)               // a fresh minute window
   */
  readonly clock: SandboxClock<Of>
  /**
   * Calls `listener` with each request as it is answered, masked; returns the stop.
   *
   * @example
   * const stop = sandbox.onRequest((entry) => console.log(entry.status, entry.path))
   */
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
  /**
   * Returns the session to what it was made from (D34), keeping runtime keys (D22) and, unless `clock`, the clock.
   *
   * @example
   * beforeEach(() => sandbox.reset({ clock: true }))
   */
  reset(options?: SandboxResetOptions): Promise<void>
  /**
   * Arrange and read stored pets without HTTP and without spending quota.
   *
   * @example
   * const pet = await sandbox.pets.create({ name: 'Biscuit', categoryId: 2, status: 'sold' })
   * await sandbox.pets.put({ ...pet, status: 'available' })
   * sandbox.pets.get(pet.id)?.status   // 'available'
   */
  readonly pets: SandboxPets<Of>
  /**
   * Reads and arranges a configured key's quota, both windows and the ban.
   *
   * @example
   * sandbox.quota.set('sandbox-free-key', { remaining: 0 })   // the next request is a 429
   * sandbox.quota.get('sandbox-free-key').reset               // when the minute ends, Unix seconds
   */
  readonly quota: SandboxQuota<Of>
  /**
   * Injected faults, seeded so runs repeat; `set` replaces them and starts the draws over.
   *
   * @example
   * sandbox.faults.set({ errorRate: 1, kinds: ['503'] })   // every operation answers 503
   * sandbox.faults.set({})                                      // no faults
   */
  readonly faults: {
    get(): ResolvedFaults
    set(options: FaultOptions): Answer<ResolvedFaults, Of>
  }
  /**
   * Returns the last `limit` answered requests that `match`, oldest first, keys masked.
   *
   * @example
   * sandbox.requests(5).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)
   * sandbox.requests({ limit: 5, match: (entry) => entry.status >= 500 })
   */
  requests(selection?: number | LogSelection): Answer<RequestLogEntry[], Of>
  /**
   * Returns what `GET /__sandbox/state` shows: pets, keys with their quotas, faults.
   *
   * @example
   * const { pets } = await sandbox.state()   // { count: 50, nextId: 51 }
   */
  state(): Promise<StateSummary>
  /**
   * Each key's scenario (D29), shaping what that key sees and nothing else.
   *
   * @example
   * await sandbox.scenarios.set('sandbox-free-key', 'down')   // 503 with Retry-After for that key only
   * await sandbox.scenarios.clear('sandbox-free-key')
   */
  readonly scenarios: SandboxScenarios
  /**
   * Returns the kept exchanges as HAR 1.2, masked (D35), as `GET /__sandbox/requests.har` does (D36).
   *
   * @example
   * const har = sandbox.har()   // for a browser's network panel, or Playwright's routeFromHAR
   * const last = sandbox.har({ limit: 20 })
   */
  har(options?: HarSelection): Har
  /**
   * Returns this session as a capsule (D34), to start from in any mode.
   *
   * @example
   * writeFileSync('bug-123.capsule.json', JSON.stringify(await sandbox.session('qa').capsule()))
   */
  capsule(): Promise<Capsule>
}

/**
 * A named session's controls, and a `fetch` that sends its `X-Sandbox-Session`.
 *
 * @example
 * const session = sandbox.session('worker-2')
 * await session.clock.set('2030-12-05T00:00:00Z')   // getPet answers 410 in this session only
 */
export interface Session<Of extends Timing = 'now'> extends SessionControls<Of> {
  readonly name: string
  /** `sandbox.fetch`, sending `X-Sandbox-Session: <name>` with every request. */
  readonly fetch: typeof fetch
  /** The keys bound to this session (D46). */
  readonly keys: SessionKeys
}

/**
 * The keys bound to a named session (D46): a request carrying one is in that session.
 *
 * @example
 * const { key } = await sandbox.session('worker-1').keys.add({ plan: 'pro' })
 * await fetch('http://api.test/v1/pets', { headers: { Authorization: `Bearer ${key}` } })   // in worker-1
 */
export interface SessionKeys {
  /** Makes a key bound to the session, with a plan and optional limits (required for enterprise). */
  add(init: SessionKeyInit): Promise<BoundKey>
  /** The session's bound keys, in the order they were made, as its summary lists them. */
  list(): Promise<readonly BoundKey[]>
}

/** A bound key's plan and limits (the admin document's `SessionKeyInit`). */
export interface SessionKeyInit {
  plan: Plan
  /** Overrides the plan's per-minute limit; required for `enterprise`. */
  perMinute?: number
  /** Overrides the plan's per-day limit; required for `enterprise`. */
  perDay?: number
}

/**
 * The sessions of a sandbox, as `/__sandbox/sessions` serves them.
 *
 * @example
 * await sandbox.sessions.put('bug-123', { from: 'worker-1' })   // a fork of worker-1, as it is now
 * (await sandbox.sessions.list()).map((session) => session.name)  // ['default', 'bug-123', 'worker-1']
 * await sandbox.sessions.delete('bug-123')
 */
export interface SandboxSessions {
  /** Every session, the default first, then the most recently used. */
  list(): Promise<SessionSummary[]>
  /** One session's summary, or undefined when there is none. */
  get(name: string): Promise<SessionSummary | undefined>
  /** Makes or replaces session `name`: fresh, a fork, from a capsule or a recording (D41); `reset()` returns there. */
  put(name: string, init?: SessionInit): Promise<SessionSummary>
  /** Deletes a named session; false when there is none; the default one cannot be deleted. */
  delete(name: string): Promise<boolean>
  /**
   * Deletes every named session, or those starting with `prefix`, with their log entries; returns their names.
   *
   * @example
   * await sandbox.sessions.deleteAll({ prefix: runId() })   // this run's sessions, no other's
   */
  deleteAll(options?: DeleteSessionsOptions): Promise<string[]>
  /** Session `name`'s capsule, or undefined when there is none (this does not make it). */
  capsule(name: string): Promise<Capsule | undefined>
}

/** How `sandbox.sessions.put` makes a session: fresh, a fork of `from`, from a capsule, or from a recording. */
export type SessionInit = Record<string, never> | { from: string } | { capsule: Capsule } | { har: RecordedHar }

/**
 * What `sandbox.reset()` restores besides the pets, counters and bans.
 *
 * @example
 * await sandbox.reset({ clock: true })   // and the clock back on real time
 */
export interface SandboxResetOptions {
  /** Puts the clock back too: on the starting instant, or on its time source. */
  clock?: boolean
}

/**
 * The stored pets, as requests see them; writes are checked against the contract and seen by the next request.
 *
 * @example
 * await sandbox.ready()
 * const sold = sandbox.pets.all().filter((pet) => pet.status === 'sold')
 */
export interface SandboxPets<Of extends Timing = 'now'> {
  /** Returns every stored pet in id order; `[]` until `await sandbox.ready()`. */
  all(): Answer<Pet[], Of>
  /** A copy of the pet with this id, if stored (change it with `put`). */
  get(id: number): Answer<Pet | undefined, Of>
  /** Stores a new pet as `POST /pets` does (D4, D5), and returns it. */
  create(pet: NewPet): Promise<Pet>
  /** Stores `pet` under its own id, replacing or adding it, and returns it. */
  put(pet: Pet): Promise<Pet>
}

/**
 * The rate-limit standing of a sandbox's keys.
 *
 * @example
 * sandbox.quota.set('sandbox-free-key', { banned: true })
 * sandbox.quota.get('sandbox-free-key').banned   // true
 */
export interface SandboxQuota<Of extends Timing = 'now'> {
  /** Where `key` stands: binding window, both windows, ban. Counts no request. */
  get(key: string): Answer<QuotaStanding, Of>
  /** Sets what is left (both windows, or one) and starts or lifts a ban; returns the new state. */
  set(key: string, change: QuotaChange): Answer<QuotaStanding, Of>
  /** Returns where a client address stands without a valid key (D16, D32), counting no request. */
  ofAddress(address: string): Promise<QuotaStanding>
}

/**
 * A sandbox whose state is shared with other processes: every read and move resolves once they all see it.
 *
 * @example
 * import { createSandbox } from 'petstore-sandbox'
 * import { connectRedisState } from 'petstore-sandbox/redis'
 *
 * const sandbox = createSandbox({ shared: await connectRedisState({ url: 'redis://127.0.0.1:6379' }) })
 * await sandbox.ready()
 * await sandbox.quota.set('sandbox-free-key', { remaining: 0 })   // every process refuses it now
 */
export type SharedSandbox = Sandbox<'later'>
