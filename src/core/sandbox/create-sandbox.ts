import type { HttpHandler } from 'msw'
import { createClock, type SandboxClock } from '../clock/create-clock.js'
import { createApiScope } from '../contract/create-api-scope.js'
import { createRouter } from '../contract/create-router.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { createApiHandler, type ApiHandlerParts } from '../pipeline/create-api-handler.js'
import { createPet } from '../operations/create-pet.js'
import { getPet } from '../operations/get-pet.js'
import { listPets } from '../operations/list-pets.js'
import { createKeyRing } from '../auth/create-key-ring.js'
import { createKeyControls, type SandboxApiKeys } from '../auth/create-key-controls.js'
import type { ApiKey } from '../auth/key-config.js'
import { maskKey } from '../auth/mask-key.js'
import { createCors } from '../http/create-cors.js'
import { createDeprecations } from '../http/create-deprecations.js'
import { createRateLimiter, type QuotaChange, type QuotaState } from '../rate-limit/create-rate-limiter.js'
import { createRequestValidator } from '../validation/create-request-validator.js'
import { resolveOptions } from './resolve-options.js'
import type { SandboxOptions, SharedSandboxOptions } from './sandbox-options.js'
import { createPetStore } from '../store/create-pet-store.js'
import type { NewPet, Pet } from '../store/pet.js'
import { seedPets } from '../store/seed-pets.js'
import { assertPet } from '../store/assert-pet.js'
import { assertQuotaChange } from '../rate-limit/assert-quota-change.js'
import { ConfigError } from '../errors/config-error.js'
import { createAdminHandler } from '../admin/create-admin-handler.js'
import type { StateSummary } from '../admin/admin-controls.js'
import { createFaultInjector, realSleep } from '../faults/create-fault-injector.js'
import { resolveFaults, type FaultOptions, type ResolvedFaults } from '../faults/fault-config.js'
import { createRequestLog, type RequestLogEntry } from '../request-log/create-request-log.js'
import { createSandboxFetch } from './create-sandbox-fetch.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { RateLimitBackend } from '../state/rate-limit-backend.js'
import type { RequestRecord } from '../request-log/create-request-log.js'
import { followSharedFaults } from './follow-shared-faults.js'
import type { SharedSandbox } from './shared-sandbox.js'
import { createReadiness, type Readiness } from '../probes/create-readiness.js'
import { createProbeHandler } from '../probes/create-probe-handler.js'
import { toHar, type Har } from '../request-log/to-har.js'
import { createScenarios, type SandboxScenarios } from '../scenarios/create-scenarios.js'
import { resolveScenarios } from '../scenarios/scenario-config.js'
import { forcibleStatuses } from '../scenarios/forced-status.js'

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
export interface Sandbox {
  /**
   * The msw request handlers of the API, for `setupServer` (Node) or `setupWorker` (browser).
   * Without `baseUrl` they answer `/v1` on any origin and leave every other request alone.
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
   * The sandbox clock (D20): rate-limit windows, bans and the sunset read it. `set` and
   * `advance` move it; it keeps running forward from there.
   *
   * @example
   * sandbox.clock.set('2030-12-05T00:00:00Z')   // getPet answers 410 from now on
   * sandbox.clock.advance(60_000)               // a fresh minute window
   */
  readonly clock: SandboxClock
  /**
   * The keys in force with their resolved limits: the configured ones, as changed by `apiKeys`.
   *
   * @example
   * sandbox.keys.find((key) => key.plan === 'pro')?.perMinute   // 300
   */
  readonly keys: readonly ApiKey[]
  /** Add a key, change its plan, revoke it, at runtime (the admin API's `/keys`). */
  readonly apiKeys: SandboxApiKeys
  /**
   * Calls `listener` with each request as it is answered, masked as in `requests()` (the
   * dashboard's live log); returns the function that stops it.
   *
   * @example
   * const stop = sandbox.onRequest((entry) => console.log(entry.status, entry.path))
   */
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
  /**
   * Restores the seeded pets (ids start over) and forgets every rate-limit counter and ban and the
   * kept requests; keys added or changed at runtime stay (docs/decisions.md#d22). The
   * clock stays where it is unless `clock: true` puts it back on its time source. Requests made
   * meanwhile wait for it.
   *
   * @example
   * beforeEach(() => sandbox.reset({ clock: true }))
   */
  reset(options?: SandboxResetOptions): Promise<void>
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
  /**
   * Arrange and read stored pets without HTTP and without spending quota.
   *
   * @example
   * const pet = await sandbox.pets.create({ name: 'Biscuit', categoryId: 2, status: 'sold' })
   * await sandbox.pets.put({ ...pet, status: 'available' })
   * sandbox.pets.get(pet.id)?.status   // 'available'
   */
  readonly pets: SandboxPets
  /**
   * Inspect and arrange a configured key's quota (both windows and the ban) without looping over
   * requests. Throws `ConfigError` for a key that is not configured.
   *
   * @example
   * sandbox.quota.set('sandbox-free-key', { remaining: 0 })   // the next request is a 429
   * sandbox.quota.get('sandbox-free-key').reset               // when the minute ends, Unix seconds
   */
  readonly quota: SandboxQuota
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
    set(options: FaultOptions): ResolvedFaults
  }
  /**
   * The last `limit` answered requests (default: all kept), oldest first, keys masked.
   *
   * @example
   * sandbox.requests(5).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)
   */
  requests(limit?: number): RequestLogEntry[]
  /**
   * Each key's scenario (D25): what that key sees, and nothing else. Built in: `empty`, `slow`,
   * `flaky`, `down`, `sunset`, `rate-limited`; more from `scenarios.custom`. `reset()` restores
   * those given at creation.
   *
   * @example
   * await sandbox.scenarios.set('sandbox-free-key', 'down')   // 503 with Retry-After for that key only
   * await sandbox.scenarios.clear('sandbox-free-key')
   */
  readonly scenarios: SandboxScenarios
  /**
   * Pet count, next id, every key with its plan, quota and ban, and the faults: what
   * `GET /__sandbox/state` shows.
   *
   * @example
   * const { pets } = await sandbox.state()   // { count: 50, nextId: 51 }
   */
  state(): Promise<StateSummary>
  /**
   * The exchanges this process answered, kept by the request log, as a HAR 1.2 document (what
   * `GET /__sandbox/requests.har` serves): headers and bodies (up to 64 KiB each) of the last 1000,
   * keys and the admin token masked. `id` picks one exchange (a request log entry's `id`).
   *
   * @example
   * const har = sandbox.har()   // for a browser's network panel, or Playwright's routeFromHAR
   */
  har(options?: { id?: string }): Har
}

/**
 * What `sandbox.reset()` restores besides the pets, counters and bans.
 *
 * @example
 * await sandbox.reset({ clock: true })   // and the clock back on real time
 */
export interface SandboxResetOptions {
  /** Also put the clock back on its time source (undoes `clock.set` and `clock.advance`). */
  clock?: boolean
}

/**
 * The stored pets of a sandbox (`sandbox.pets`). Reads reflect the store as requests see it;
 * writes validate the pet (throwing `TypeError` for one the contract does not allow) and are seen
 * by the next request.
 *
 * @example
 * await sandbox.ready()
 * const sold = sandbox.pets.all().filter((pet) => pet.status === 'sold')
 */
export interface SandboxPets {
  /** Every stored pet, ascending by id. Call after `ready()` (or any awaited request). */
  all(): Pet[]
  /** The pet with this id, if stored. */
  get(id: number): Pet | undefined
  /** Stores a new pet as `createPet` would (the next id is assigned) and returns it. */
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
export interface SandboxQuota {
  /** Where `key` stands: binding window, both windows, ban. Counts no request. */
  get(key: string): QuotaState
  /** Sets what is left (both windows, or one) and starts or lifts a ban; returns the new state. */
  set(key: string, change: QuotaChange): QuotaState
}

/**
 * Creates a stateful, in-memory Animal Store API: msw handlers plus the state behind them. Options
 * are checked here (a bad one throws `ConfigError`), never per request. Each call is independent:
 * its own store, clock, counters and Faker instance.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSandbox } from 'petstore-sandbox'
 *
 * const sandbox = createSandbox({ seed: 7, pets: 20 })
 * const server = setupServer(...sandbox.handlers)
 * server.listen()
 * const response = await fetch('http://api.test/v1/pets?status=sold', {
 *   headers: { Authorization: 'Bearer sandbox-free-key' },
 * })
 */
export function createSandbox(options: SharedSandboxOptions): SharedSandbox
export function createSandbox(options?: SandboxOptions): Sandbox
export function createSandbox(options: SandboxOptions | SharedSandboxOptions = {}): Sandbox | SharedSandbox {
  const resolved = resolveOptions(options)
  const { shared } = resolved
  const clock = createClock(resolved.now, shared?.clockOffset)
  const router = createRouter(openapiDocument)
  const { givenPets } = resolved
  const seed = givenPets === undefined ? () => seedPets(resolved.seed, resolved.pets) : () => givenPets
  const store: PetRepository = shared
    ? shared.pets({ seed: resolved.seed, pets: resolved.lastSeededId, draw: seed }, { maxPets: resolved.maxPets })
    : createPetStore({ seed, maxPets: resolved.maxPets, ...(resolved.storage ? { storage: resolved.storage } : {}) })
  const apiKeys = createKeyControls({ keyRing: createKeyRing(resolved.keys), storage: shared?.keys ?? resolved.keyStorage, adminToken: resolved.adminToken })
  const keyRing = apiKeys.ring
  const policy = { banAfter: resolved.banAfter, banSeconds: resolved.banSeconds }
  const rateLimiter: RateLimitBackend = shared ? shared.rateLimits({ source: resolved.now, ...policy }) : createRateLimiter({ now: clock.now, ...policy })
  const validator = createRequestValidator(openapiDocument)
  const operationIds = router.operations().map((operation) => operation.operationId)
  const injector = createFaultInjector({
    faults: resolveFaults(resolved.faults, resolved.seed, operationIds),
    ...(resolved.sleep ? { sleep: resolved.sleep } : {}),
  })
  const faults = shared ? followSharedFaults(injector, shared) : injector
  const forcible = forcibleStatuses(openapiDocument)
  const knownScenarios = resolveScenarios(resolved.scenarios.custom, forcible)
  for (const [key, name] of Object.entries(resolved.scenarios.keys ?? {})) {
    // Checked now, as any option is; the key is masked, as a secret of a keys file may be.
    if (keyRing.find(key) === undefined) throw new ConfigError(`scenarios.keys: ${maskKey(key)} is no configured key`)
    if (!knownScenarios.has(name))
      throw new ConfigError(`scenarios.keys: unknown scenario ${JSON.stringify(name)}; known: ${[...knownScenarios.keys()].join(', ')}`)
  }
  const scenarios = createScenarios({
    known: knownScenarios,
    initial: { ...resolved.scenarios.keys },
    seed: resolved.seed,
    sleep: resolved.sleep ?? realSleep,
    isKey: (key) => keyRing.find(key) !== undefined,
    shared: shared?.scenarios,
  })
  const localLog = createRequestLog(resolved.requestLogSize, () => keyRing.keys.map((apiKey) => apiKey.key))
  const sharedLog = shared?.requestLog(resolved.requestLogSize)
  // With shared state the log lives there; this process tells its own watchers (onRequest) of its
  // own entries at once, and the shared log brings them the other processes' entries.
  const requestLog = sharedLog
    ? {
        record(record: RequestRecord) {
          // Kept here too: the exchanges' headers and bodies stay with the process that answered.
          const entry = localLog.show(localLog.keep(record))
          sharedLog.record(entry)
          localLog.publish(entry)
        },
      }
    : localLog

  // Seeding and resets in progress: /readyz answers 503 meanwhile, whichever store holds the pets.
  let filling = 0
  const parts: Omit<ApiHandlerParts, 'scope'> = {
    router,
    operations: {
      listPets: listPets(store),
      createPet: createPet(store, resolved.defaultStatus),
      getPet: getPet(store),
    },
    keyRing,
    rateLimiter,
    validator,
    deprecations: createDeprecations(router.operations(), resolved.deprecation),
    cors: createCors(resolved.corsOrigins),
    clock,
    faults,
    scenarios,
    forcible,
    prefer: resolved.prefer,
    requestLog,
    ready: store.ready,
    storeSettled: () => filling === 0,
    onUnexpectedError: resolved.onUnexpectedError,
  }
  const handlers: HttpHandler[] = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl) })]
  const originHandlers: HttpHandler[] = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl, true) })]
  const tracked = (work: Promise<void>): Promise<void> => {
    filling++
    return work.finally(() => filling--)
  }
  // A store that cannot start (shared state seeded otherwise) rejects `ready()`: the caller hears it.
  tracked(store.start()).catch(() => undefined)
  const readiness = createReadiness([{ name: 'store', notReady: () => (filling > 0 ? 'seeding the pets' : undefined) }])
  const storage = resolved.storage
  if (storage?.notReady) readiness.add({ name: 'storage', notReady: () => storage.notReady?.() })
  if (shared) readiness.add({ name: 'shared state', notReady: () => shared.notReady() })

  const keyNamed = (key: string): ApiKey => {
    const found = keyRing.find(key)
    if (found === undefined) throw new ConfigError(`no configured key ${JSON.stringify(key)}`)
    return found
  }

  const sandbox: Sandbox & SharedSandbox = {
    handlers,
    originHandlers,
    fetch: createSandboxFetch(handlers, resolved.baseUrl),
    clock: clock as SandboxClock & SharedSandbox['clock'],
    get keys() {
      return keyRing.keys
    },
    apiKeys,
    onRequest: sharedLog
      ? (listener) => {
          const stopLocal = localLog.subscribe(listener)
          const stopOthers = sharedLog.watchOthers(listener)
          return () => {
            stopLocal()
            stopOthers()
          }
        }
      : localLog.subscribe,
    reset(options = {}) {
      // Not ready from the call on, not only once the store starts over.
      return tracked(
        (async () => {
          if (options.clock === true) await clock.reset()
          await rateLimiter.clear()
          // A shared log is emptied by the store's reset, in the step that switches the pets.
          localLog.clear()
          faults.restart()
          await scenarios.reset()
          await store.reset()
        })(),
      )
    },
    ready: store.ready,
    readiness: readiness.current,
    pets: {
      all: store.all as () => Pet[] & Promise<Pet[]>,
      get: store.get as (id: number) => Pet & Promise<Pet | undefined>,
      async create(pet) {
        // Any valid id stands in: the store assigns the real one.
        assertPet({ ...pet, id: 1 })
        await store.ready()
        return store.create(pet)
      },
      async put(pet) {
        assertPet(pet)
        await store.ready()
        return store.put(pet)
      },
    },
    quota: {
      get: (key: string) => rateLimiter.inspect(`key:${key}`, keyNamed(key)) as QuotaState & Promise<QuotaState>,
      set: (key: string, change: QuotaChange) =>
        rateLimiter.arrange(`key:${key}`, keyNamed(key), assertQuotaChange(change)) as QuotaState & Promise<QuotaState>,
    },
    faults: {
      get: faults.config,
      set(options: FaultOptions) {
        const next = resolveFaults(options, resolved.seed, operationIds)
        faults.configure(next)
        return (shared ? shared.faults.set(next).then(faults.config) : faults.config()) as ResolvedFaults & Promise<ResolvedFaults>
      },
    },
    requests: (limit?: number) => (sharedLog ? sharedLog.last(limit) : localLog.last(limit)) as RequestLogEntry[] & Promise<RequestLogEntry[]>,
    async state() {
      await store.ready()
      await clock.sync()
      return {
        now: new Date(clock.now()).toISOString(),
        pets: { count: await store.count(), nextId: await store.nextId() },
        seeded: { seed: resolved.seed, pets: resolved.pets },
        keys: await Promise.all(
          keyRing.keys.map(async (key) => ({
            key: key.key,
            masked: maskKey(key.key),
            plan: key.plan,
            perMinute: key.perMinute,
            perDay: key.perDay,
            quota: await rateLimiter.inspect(`key:${key.key}`, key),
            ...(scenarios.of(key.key) === undefined ? {} : { scenario: scenarios.of(key.key) }),
          })),
        ),
        faults: faults.config(),
        scenarios: scenarios.list(),
      }
    },
    har({ id } = {}) {
      const records = id === undefined ? localLog.exchanges() : [localLog.exchange(id)].filter((record) => record !== undefined)
      return toHar(records, { keys: keyRing.keys.map((apiKey) => apiKey.key), adminToken: resolved.adminToken, version: openapiDocument.info.version })
    },
    scenarios: {
      set: async (key, name) => scenarios.set(key, name),
      clear: async (key) => scenarios.clear(key),
      get: scenarios.of,
      list: scenarios.list,
    },
    close: () => shared?.close() ?? Promise.resolve(),
  }
  if (resolved.adminToken !== undefined) {
    // First in line: the origin-wide API handler would otherwise answer /__sandbox with a 404.
    const admin = createAdminHandler({
      controls: { ...sandbox, clock },
      token: resolved.adminToken,
      origin: resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin,
      onUnexpectedError: resolved.onUnexpectedError,
      now: clock.now,
    })
    handlers.unshift(admin)
    originHandlers.unshift(admin)
  }
  // Origin-wide only: in-process handlers without a baseUrl must leave other servers' probes alone.
  originHandlers.unshift(
    createProbeHandler({
      readiness: readiness.current,
      origin: resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin,
      onUnexpectedError: resolved.onUnexpectedError,
    }),
  )
  return sandbox
}
