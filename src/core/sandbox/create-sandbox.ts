import { createAdminGate } from '../admin/create-admin-gate.js'
import { createAdminHandler } from '../admin/create-admin-handler.js'
import { createKeyControls } from '../auth/create-key-controls.js'
import { createKeyRing } from '../auth/create-key-ring.js'
import type { Secrets } from '../auth/create-masker.js'
import type { ApiKey } from '../auth/key-config.js'
import { maskKey } from '../auth/mask-key.js'
import { noConfiguredKey } from '../auth/no-configured-key.js'
import { PLANS } from '../auth/plans.js'
import { checkInput } from '../contract/check-input.js'
import { createApiScope } from '../contract/create-api-scope.js'
import { createRouter } from '../contract/create-router.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import { type FaultOptions, resolveFaults } from '../faults/fault-config.js'
import { createCors } from '../http/create-cors.js'
import { createDeprecations } from '../http/create-deprecations.js'
import { createPet } from '../operations/create-pet.js'
import { getPet } from '../operations/get-pet.js'
import { listPets } from '../operations/list-pets.js'
import { type ApiHandlerParts, createApiHandler } from '../pipeline/create-api-handler.js'
import { createProbeHandler } from '../probes/create-probe-handler.js'
import { createReadiness } from '../probes/create-readiness.js'
import type { Timing } from '../state/maybe-promise.js'
import type { QuotaChange, QuotaState } from '../state/rate-limit-backend.js'
import { assertPet } from '../store/assert-pet.js'
import { seedPets } from '../store/seed-pets.js'
import { createRequestValidator } from '../validation/create-request-validator.js'
import { createSandboxFetch } from './create-sandbox-fetch.js'
import { realSleep } from '../faults/create-fault-injector.js'
import { sandboxHar } from './sandbox-har.js'
import type { LogSelection } from '../request-log/create-request-log.js'
import { countedClient } from '../rate-limit/counted-client.js'
import { createScenarios, unknownScenario } from '../scenarios/create-scenarios.js'
import { forcibleStatuses } from '../scenarios/forced-status.js'
import { resolveScenarios } from '../scenarios/scenario-config.js'
import { type ResolvedOptions, resolveOptions } from './resolve-options.js'
import type { Sandbox } from './sandbox.js'
import type { SandboxOptions, SharedSandboxOptions } from './sandbox-options.js'
import { ownState, type SandboxState, sharedState } from './sandbox-state.js'

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
export function createSandbox(options: SharedSandboxOptions): Sandbox<'later'>
export function createSandbox(options?: SandboxOptions): Sandbox<'now'>
export function createSandbox(options: SandboxOptions | SharedSandboxOptions = {}): Sandbox<'now'> | Sandbox<'later'> {
  const resolved = resolveOptions(options)
  const router = createRouter(openapiDocument)
  const operationIds = router.operations().map((operation) => operation.operationId)
  // Read lazily: keys change at runtime, and the key ring is made from the state's key storage.
  let keysInForce: () => readonly ApiKey[] = () => []
  const inputs = {
    resolved,
    // Given pets replace the generated ones.
    seed: resolved.givenPets === undefined ? () => seedPets(resolved.seed, resolved.pets) : () => resolved.givenPets!,
    secrets: (): Secrets => ({ keys: keysInForce().map((apiKey) => apiKey.key), adminToken: resolved.adminToken }),
    faults: resolveFaults(resolved.faults, resolved.seed, operationIds),
  }
  const compose = <Of extends Timing>(state: SandboxState<Of>) => {
    const sandbox = composeSandbox(resolved, router, state)
    keysInForce = () => sandbox.keys
    return sandbox
  }
  return resolved.shared ? compose(sharedState(inputs, resolved.shared)) : compose(ownState(inputs))
}

/** The sandbox's parts and controls over `state`, whichever kind it is. */
function composeSandbox<Of extends Timing>(resolved: ResolvedOptions, router: ReturnType<typeof createRouter>, state: SandboxState<Of>): Sandbox<Of> {
  const { clock, store, rateLimiter, faults, requestLog } = state
  const operationIds = router.operations().map((operation) => operation.operationId)
  const apiKeys = createKeyControls({ keyRing: createKeyRing(resolved.keys), storage: state.keyStorage, adminToken: resolved.adminToken })
  const keyRing = apiKeys.ring
  const secrets = (): Secrets => ({ keys: keyRing.keys.map((apiKey) => apiKey.key), adminToken: resolved.adminToken })
  const creates = createPet(store, resolved.defaultStatus)
  const forcible = forcibleStatuses(openapiDocument)
  const knownScenarios = resolveScenarios(resolved.scenarios.custom, forcible)
  for (const [key, name] of Object.entries(resolved.scenarios.keys ?? {})) {
    // Checked now, as any option is.
    if (keyRing.find(key) === undefined) throw ConfigError.ofEntry('scenarios.keys', key, noConfiguredKey(key, keyRing.keys))
    if (!knownScenarios.has(name)) throw ConfigError.ofEntry('scenarios.keys', key, unknownScenario(name, [...knownScenarios.keys()]))
  }
  const scenarios = createScenarios({
    known: knownScenarios,
    initial: { ...resolved.scenarios.keys },
    seed: resolved.seed,
    sleep: resolved.sleep ?? realSleep,
    isKey: (key) => keyRing.find(key) !== undefined,
    shared: state.scenarios,
  })

  // Seeding and resets in progress: /readyz answers 503 meanwhile, whichever store holds the pets.
  let filling = 0
  const parts: Omit<ApiHandlerParts, 'scope'> = {
    router,
    operations: { listPets: listPets(store), createPet: creates, getPet: getPet(store) },
    keyRing,
    secrets,
    rateLimiter,
    validator: createRequestValidator(openapiDocument),
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
  const handlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl) })]
  const originHandlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl, true) })]

  const tracked = (work: Promise<void>): Promise<void> => {
    filling++
    return work.finally(() => filling--)
  }
  // A store that cannot start (shared state seeded otherwise) rejects `ready()`: the caller hears it.
  tracked(store.start()).catch(() => undefined)
  const readiness = createReadiness([{ name: 'store', notReady: () => (filling > 0 ? 'seeding the pets' : undefined) }, ...state.checks])

  const keyNamed = (key: string): ApiKey => {
    const found = keyRing.find(key)
    if (found === undefined) throw new ConfigError(`no configured key ${JSON.stringify(key)}`)
    return found
  }

  const sandbox: Sandbox<Of> = {
    handlers,
    originHandlers,
    fetch: createSandboxFetch(handlers, resolved.baseUrl),
    clock,
    get keys() {
      return keyRing.keys
    },
    // A revoked key's scenario goes with it: added again, the key starts fresh.
    apiKeys: {
      ...apiKeys,
      async revoke(key) {
        await apiKeys.revoke(key)
        await scenarios.forget(key)
      },
    },
    onRequest: requestLog.onRequest,
    reset(options = {}) {
      // Not ready from the call on, not only once the store starts over.
      return tracked(
        (async () => {
          if (options.clock === true) await clock.reset()
          await rateLimiter.clear()
          // A shared log is emptied by the store's reset, in the step that switches the pets.
          requestLog.clear()
          faults.restart()
          await scenarios.reset()
          await store.reset()
        })(),
      )
    },
    ready: store.ready,
    readiness: readiness.current,
    pets: {
      all: store.all,
      get: store.get,
      async create(pet) {
        // Any valid id stands in: the store assigns the real one.
        assertPet({ ...pet, id: 1 })
        await store.ready()
        return creates.store(pet)
      },
      async put(pet) {
        assertPet(pet)
        await store.ready()
        return store.put(pet)
      },
    },
    quota: {
      get: (key: string) => rateLimiter.inspect(`key:${key}`, keyNamed(key)),
      // Held to the admin API's QuotaChange, so what PATCH /__sandbox/keys/{key} refuses is refused here, in the same words.
      set: (key: string, change: QuotaChange) => rateLimiter.arrange(`key:${key}`, keyNamed(key), checkInput<QuotaChange>('QuotaChange', change, 'quota')),
      ofAddress: async (address: string): Promise<QuotaState> => await rateLimiter.inspect(`address:${countedClient(address)}`, PLANS.free),
    },
    faults: {
      get: faults.config,
      set(options: FaultOptions) {
        const next = resolveFaults(options, resolved.seed, operationIds)
        faults.configure(next)
        return state.shareFaults(next)
      },
    },
    requests: (selection?: number | LogSelection) => requestLog.last(typeof selection === 'number' ? { limit: selection } : (selection ?? {})),
    async state() {
      await store.ready()
      await clock.sync()
      return {
        now: new Date(clock.now()).toISOString(),
        pets: { count: await store.count(), nextId: await store.nextId() },
        seeded: { seed: resolved.seed, pets: resolved.pets, source: resolved.givenPets === undefined ? 'generated' : 'given' },
        clockOffsetMs: clock.offset(),
        prefer: resolved.prefer,
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
    har: (selection = {}) => sandboxHar(requestLog, selection, secrets(), resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin),
    scenarios: {
      set: async (key, name) => scenarios.set(key, name),
      clear: async (key) => scenarios.clear(key),
      get: scenarios.of,
      list: scenarios.list,
    },
    close: state.close,
  }
  const origin = resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin
  if (resolved.adminToken !== undefined) {
    // First in line: the origin-wide API handler would otherwise answer /__sandbox with a 404.
    const admin = createAdminHandler({
      controls: { ...sandbox, clock, secrets, ...(resolved.proxyState === undefined ? {} : { proxyState: resolved.proxyState }) },
      gate: resolved.adminGate ?? createAdminGate({ token: resolved.adminToken, now: clock.now }),
      requestLog,
      origin,
      onUnexpectedError: resolved.onUnexpectedError,
      now: clock.now,
    })
    handlers.unshift(admin)
    originHandlers.unshift(admin)
  }
  // Origin-wide only: in-process handlers without a baseUrl must leave other servers' probes alone.
  originHandlers.unshift(createProbeHandler({ readiness: readiness.current, origin, onUnexpectedError: resolved.onUnexpectedError }))
  return sandbox
}
