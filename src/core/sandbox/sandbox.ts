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
import type { DeleteSessionsOptions } from '../sessions/create-sessions.js'
import type { RecordedHar } from '../learning/learn-capsule.js'
import type { SandboxScenarios } from '../scenarios/create-scenarios.js'
import type { Answer, Timing } from '../state/maybe-promise.js'
import type { QuotaChange, QuotaState } from '../state/rate-limit-backend.js'
import type { NewPet, Pet } from '../store/pet.js'

/**
 * A sandbox: the msw handlers of the Animal Store API and the state behind them, with the controls a
 * test uses to arrange and inspect that state without HTTP. Made by {@link createSandbox}.
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
   * The msw request handlers of the API, for `setupServer` (Node) or `setupWorker` (browser).
   * They answer the API's own paths (`/v1/pets…`, `/v1/store…`, `/v1/categories…`) on any origin,
   * or `baseUrl`'s, and leave every other request to the handlers after them (D40).
   *
   * @example
   * const server = setupServer(...sandbox.handlers)       // msw/node
   * const worker = setupWorker(...sandbox.handlers)       // msw/browser
   */
  readonly handlers: HttpHandler[]
  /**
   * A `fetch` answered by the sandbox directly, with no interception and no msw server: give it
   * to the client under test, and its requests can never reach the network, whenever the client
   * was built. Requests outside the API reject with a TypeError. Relative URLs resolve against
   * `baseUrl`, or the page's location.
   *
   * @example
   * const client = createClient<paths>({ baseUrl: 'http://api.test/v1', fetch: sandbox.fetch })
   * const { data } = await client.GET('/pets', { headers: { Authorization: 'Bearer sandbox-free-key' } })
   */
  readonly fetch: typeof fetch
  /**
   * The same, claiming the whole origin: paths outside the API prefix get a 404 Error body with
   * rate-limit headers. The HTTP server (`petstore-sandbox start`) serves these.
   *
   * @example
   * const response = await getResponse(sandbox.originHandlers, request)
   */
  readonly originHandlers: HttpHandler[]
  /**
   * The keys in force with their resolved limits: the configured ones, as changed by `apiKeys`.
   *
   * @example
   * sandbox.keys.find((key) => key.plan === 'pro')?.perMinute   // 300
   */
  readonly keys: readonly ApiKey[]
  /**
   * What no log may show whole (D35): the keys in force, the keys bound to sessions (D46) and the
   * admin token, as they stand now; a log made outside the sandbox masks with them.
   *
   * @example
   * const requestLog = createRequestLog(100, sandbox.secrets)
   */
  secrets(): Secrets
  /** Add a key, change its plan, revoke it, at runtime (the admin API's `/keys`). */
  readonly apiKeys: SandboxApiKeys
  /**
   * Resolves once the seeded pets are in the store. Requests wait for it by themselves; call it
   * before reading `pets` right after `createSandbox()`.
   *
   * @example
   * await sandbox.ready()
   * sandbox.pets.all().length   // 50
   */
  ready(): Promise<void>
  /**
   * Whether the sandbox can serve right now, and why not: what `GET /readyz` answers over HTTP.
   * Not ready while the pets are seeded or a reset runs, or while a check added by a storage
   * (`storage.notReady`) fails.
   *
   * @example
   * sandbox.readiness()   // { ready: false, checks: [{ name: 'store', ready: false, reason: 'seeding the pets' }] }
   */
  readiness(): Readiness
  /** Lets go of the state: closes a shared state's connection; nothing to do for the sandbox's own. */
  close(): Promise<void>
  /**
   * The controls of session `name` (docs/decisions.md#d34), made from the start-up world on first
   * use, as a request naming it would; `default` is the sandbox's own. Throws `ConfigError` for a
   * name the rule refuses. Its `fetch` sends `X-Sandbox-Session: <name>` with every request.
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

/**
 * What every session of a sandbox offers, the default one (the sandbox itself) and each named one
 * (`sandbox.session(name)`): the controls of its world. The admin API's per-session calls are
 * these, acting on the session `X-Sandbox-Session` names.
 */
export interface SessionControls<Of extends Timing = 'now'> {
  /**
   * The sandbox clock (D20): rate-limit windows, bans and the sunset read it. `set` and
   * `advance` move it; it keeps running forward from there.
   *
   * @example
   * sandbox.clock.set('2030-12-05T00:00:00Z')   // getPet answers 410 from now on
   * sandbox.clock.advance(60_000)               // a fresh minute window
   */
  readonly clock: SandboxClock<Of>
  /**
   * Calls `listener` with each request as it is answered, masked as in `requests()` (the
   * dashboard's live log); returns the function that stops it.
   *
   * @example
   * const stop = sandbox.onRequest((entry) => console.log(entry.status, entry.path))
   */
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
  /**
   * Returns the session to its origin (docs/decisions.md#d34): the seeded pets (ids start over),
   * or what a fork or capsule made it from, with their quotas; forgets every other rate-limit
   * counter and ban and the session's kept requests, and starts the fault draws over. Keys added or
   * changed at runtime stay (docs/decisions.md#d22), and so does the fault configuration. The clock
   * stays where it is unless `clock: true` puts it back (on `startAt`, the origin's instant, or its
   * time source). Requests made meanwhile wait for it.
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
   * Inspect and arrange a configured key's quota (both windows and the ban) without looping over
   * requests. Throws `ConfigError` for a key that is not configured.
   *
   * @example
   * sandbox.quota.set('sandbox-free-key', { remaining: 0 })   // the next request is a 429
   * sandbox.quota.get('sandbox-free-key').reset               // when the minute ends, Unix seconds
   */
  readonly quota: SandboxQuota<Of>
  /**
   * Injected faults (latency, 500/503, dropped connections), seeded so runs repeat. `get` reads the
   * configuration, `set` replaces it (the draws start over from its seed).
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
   * The last `limit` answered requests (default: all kept), oldest first, keys masked; with a
   * selection, the last `limit` of those it `match`es.
   *
   * @example
   * sandbox.requests(5).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)
   * sandbox.requests({ limit: 5, match: (entry) => entry.status >= 500 })
   */
  requests(selection?: number | LogSelection): Answer<RequestLogEntry[], Of>
  /**
   * Pet count, next id, every key with its plan, quota and ban, and the faults: what
   * `GET /__sandbox/state` shows.
   *
   * @example
   * const { pets } = await sandbox.state()   // { count: 50, nextId: 51 }
   */
  state(): Promise<StateSummary>
  /**
   * Each key's scenario (D29): what that key sees, and nothing else. Built in: `BUILT_IN_SCENARIOS`;
   * more from `scenarios.custom`. `reset()` restores those given at creation.
   *
   * @example
   * await sandbox.scenarios.set('sandbox-free-key', 'down')   // 503 with Retry-After for that key only
   * await sandbox.scenarios.clear('sandbox-free-key')
   */
  readonly scenarios: SandboxScenarios
  /**
   * The exchanges this process answered, kept by the request log, as a HAR 1.2 document (what
   * `GET /__sandbox/requests.har` serves), made from the request log's entries: their headers, and
   * the bodies (up to 64 KiB each) of the last 1000, keys and the admin token masked (D35). `id`
   * picks one exchange (a request log entry's `id`); otherwise `limit` and `match` pick the last
   * exchanges, as for `requests()` (D36).
   *
   * @example
   * const har = sandbox.har()   // for a browser's network panel, or Playwright's routeFromHAR
   * const last = sandbox.har({ limit: 20 })
   */
  har(options?: HarSelection): Har
  /**
   * This session's world as a capsule (D34): its pets and next id, clock, faults, each key's
   * scenario and quota, and its exchanges as HAR, for `createSandbox({ from })`, `start --from`
   * or `sandbox.sessions.put(name, { capsule })`, in any mode.
   *
   * @example
   * writeFileSync('bug-123.capsule.json', JSON.stringify(await sandbox.session('qa').capsule()))
   */
  capsule(): Promise<Capsule>
}

/**
 * One named session's controls (`sandbox.session(name)`), and a `fetch` that sends its
 * `X-Sandbox-Session` header.
 *
 * @example
 * const session = sandbox.session('worker-2')
 * await session.clock.set('2030-12-05T00:00:00Z')   // getPet answers 410 in this session only
 */
export interface Session<Of extends Timing = 'now'> extends SessionControls<Of> {
  readonly name: string
  /** `sandbox.fetch`, sending `X-Sandbox-Session: <name>` with every request. */
  readonly fetch: typeof fetch
  /** The keys bound to this session (docs/decisions.md#d46), as `POST /__sandbox/sessions/{name}/keys` makes them. */
  readonly keys: SessionKeys
}

/**
 * The keys bound to one named session (docs/decisions.md#d46): a request carrying one is in that
 * session with no `X-Sandbox-Session`, so an app's server that forwards the user's token carries
 * the session with it. A bound key goes with its session; a reset keeps it.
 *
 * @example
 * const { key } = await sandbox.session('worker-1').keys.add({ plan: 'pro' })
 * await fetch('http://api.test/v1/pets', { headers: { Authorization: `Bearer ${key}` } })   // in worker-1
 */
export interface SessionKeys {
  /** Makes a key bound to the session, with a plan and optional limits (required for enterprise); the admin API's `addSessionKey`. */
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
 * The sessions of a sandbox (`sandbox.sessions`): what the admin API's `/__sandbox/sessions` serves.
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
  /**
   * Makes session `name`, or replaces it: fresh from the start-up world (`{}`), a fork of another
   * session's world as it is now (`{ from }`), restored from a capsule (`{ capsule }`), or learned
   * from a recording (`{ har }`, HAR 1.2, D41). What it
   * was made from is what its `reset()` returns to. Throws `ConfigError` for a bad name, an
   * unknown source or a capsule that cannot be restored here (naming the field).
   */
  put(name: string, init?: SessionInit): Promise<SessionSummary>
  /** Deletes a named session; false when there is none. The default session cannot be deleted (`ConfigError`). */
  delete(name: string): Promise<boolean>
  /**
   * Deletes every named session, or those whose name starts with `prefix` (a run's, named by
   * `petstore-sandbox/testing`), with their log entries; returns their names. The default session
   * stays as it is: `reset()` it.
   *
   * @example
   * await sandbox.sessions.deleteAll({ prefix: runId() })   // this run's sessions, no other's
   */
  deleteAll(options?: DeleteSessionsOptions): Promise<string[]>
  /** Session `name`'s capsule, or undefined when there is none (this does not make it). */
  capsule(name: string): Promise<Capsule | undefined>
}

/** How `sandbox.sessions.put` makes a session: fresh (`{}`), a fork of session `from`, from a capsule, or from a recording. */
export type SessionInit = Record<string, never> | { from: string } | { capsule: Capsule } | { har: RecordedHar }

/**
 * What `sandbox.reset()` restores besides the pets, counters and bans.
 *
 * @example
 * await sandbox.reset({ clock: true })   // and the clock back on real time
 */
export interface SandboxResetOptions {
  /** Also put the clock back: on the origin's instant (`startAt`, a capsule's, a fork's), or on its time source (undoes `clock.set` and `clock.advance`). */
  clock?: boolean
}

/**
 * The stored pets of a sandbox (`sandbox.pets`). Reads reflect the store as requests see it;
 * writes validate the pet (throwing `ConfigError` for one the contract's `Pet` does not allow) and are seen
 * by the next request.
 *
 * @example
 * await sandbox.ready()
 * const sold = sandbox.pets.all().filter((pet) => pet.status === 'sold')
 */
export interface SandboxPets<Of extends Timing = 'now'> {
  /**
   * Every stored pet, ascending by id, as copies (change one with `put`). Seeding is asynchronous:
   * right after `createSandbox()` this is `[]` until `await sandbox.ready()` (or any awaited request).
   */
  all(): Answer<Pet[], Of>
  /** A copy of the pet with this id, if stored (change it with `put`). */
  get(id: number): Answer<Pet | undefined, Of>
  /**
   * Stores a new pet as `POST /pets` does, through the same code: the name trimmed (1 to 200
   * characters, D5), the default status when none is given (D4), the next id assigned. Returns it.
   */
  create(pet: NewPet): Promise<Pet>
  /**
   * Stores `pet` under its own id: replaces the stored pet with that id, or adds it when the id
   * is beyond every assigned one (later creates continue after it). Returns the stored pet.
   */
  put(pet: Pet): Promise<Pet>
}

/**
 * The rate-limit state of a sandbox's keys (`sandbox.quota`).
 *
 * @example
 * sandbox.quota.set('sandbox-free-key', { banned: true })
 * sandbox.quota.get('sandbox-free-key').banned   // true
 */
export interface SandboxQuota<Of extends Timing = 'now'> {
  /** Where `key` stands: binding window, both windows, ban. Counts no request. */
  get(key: string): Answer<QuotaState, Of>
  /** Sets what is left (both windows, or one) and starts or lifts a ban; returns the new state. */
  set(key: string, change: QuotaChange): Answer<QuotaState, Of>
  /**
   * Where a client address stands when it sends no valid key (D16; an IPv6 address's /64 network,
   * D32): what the HTTP server names in a refusal it gives before the request can be read.
   * Counts no request.
   */
  ofAddress(address: string): Promise<QuotaState>
}

/**
 * A sandbox whose state lives elsewhere, shared with other processes (`createSandbox({ shared })`):
 * the same members as `Sandbox`, but every read of the state and every move of it is a promise,
 * resolved once every process sharing the state will see it. `onRequest` hears the requests of
 * every process sharing the state; another process's arrive a moment after they were answered
 * (they travel in batches).
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
