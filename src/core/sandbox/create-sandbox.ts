import { createAdminGate } from '../admin/create-admin-gate.js'
import { createAdminHandler } from '../admin/create-admin-handler.js'
import { createKeyControls } from '../auth/create-key-controls.js'
import { createKeyRing } from '../auth/create-key-ring.js'
import type { Secrets } from '../auth/create-masker.js'
import type { ApiKey } from '../auth/key-config.js'
import { createApiScope } from '../contract/create-api-scope.js'
import { createRouter } from '../contract/create-router.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { realSleep } from '../faults/create-fault-injector.js'
import { createCors } from '../http/create-cors.js'
import { createDeprecations } from '../http/create-deprecations.js'
import { type ApiHandlerParts, createApiHandler } from '../pipeline/create-api-handler.js'
import { createProbeHandler } from '../probes/create-probe-handler.js'
import { createAnswerTail } from '../pipeline/answer-tail.js'
import { createReadiness, createStoreWork } from '../probes/create-readiness.js'
import { forcibleStatuses } from '../scenarios/forced-status.js'
import { checkScenarioKeys, resolveScenarios } from '../scenarios/scenario-config.js'
import type { Origin } from '../sessions/origin.js'
import { startUpOrigin } from '../sessions/world-table.js'
import { createSessionLifecycle } from '../sessions/session-lifecycle.js'
import type { WorldOptions } from '../sessions/world.js'
import type { Timing } from '../state/maybe-promise.js'
import { createPetBase } from '../store/create-pet-base.js'
import { seedPets } from '../store/seed-pets.js'
import { createRequestValidator } from '../validation/create-request-validator.js'
import { createSandboxFetch } from './create-sandbox-fetch.js'
import {
  carrierParts,
  createSandboxSessions,
  createSessionControls,
  createSessionOf,
  type ProcessControls,
} from './create-session-controls.js'
import { type ResolvedOptions, resolveOptions } from './resolve-options.js'
import type { Sandbox, SessionKeyInit } from './sandbox.js'
import type { SandboxOptions, SharedSandboxOptions } from './sandbox-options.js'
import { ownState, type SandboxState, sharedState } from './sandbox-state.js'

/**
 * Creates the Animal Store API as msw handlers; a bad option throws `ConfigError`.
 *
 * @example
 * setupServer(...createSandbox({ seed: 7, pets: 20 }).handlers).listen()
 */
export function createSandbox(options: SharedSandboxOptions): Sandbox<'later'>
export function createSandbox(options?: SandboxOptions): Sandbox<'now'>
export function createSandbox(options: SandboxOptions | SharedSandboxOptions = {}): Sandbox<'now'> | Sandbox<'later'> {
  const resolved = resolveOptions(options)
  const router = createRouter(openapiDocument)
  const operationIds = router.operations().map((operation) => operation.operationId)
  // Lazily: the key ring comes from the state's storage.
  let keysInForce: () => readonly ApiKey[] = () => []
  let boundInForce: () => readonly string[] = () => []
  const base = createPetBase()
  const startUp = startUpOrigin({
    base,
    seed: resolved.seed,
    startAt: resolved.startAt,
    faults: resolved.faults,
    scenarios: resolved.scenarios.keys,
    from: resolved.from,
    keys: resolved.keys,
    operationIds,
  })
  const defaultOrigin = { current: startUp }
  const inputs = {
    resolved,
    seed: resolved.givenPets === undefined ? () => seedPets(resolved.seed, resolved.pets) : () => resolved.givenPets!,
    secrets: (): Secrets => ({
      keys: [...keysInForce().map((apiKey) => apiKey.key), ...boundInForce()],
      adminToken: resolved.adminToken,
    }),
    origin: defaultOrigin,
    base,
  }
  const compose = <Of extends Timing>(state: SandboxState<Of>) => {
    const sandbox = composeSandbox(resolved, router, state, startUp, defaultOrigin)
    keysInForce = () => sandbox.keys
    boundInForce = state.boundKeys.tokens
    return sandbox
  }
  return resolved.shared ? compose(sharedState(inputs, resolved.shared)) : compose(ownState(inputs))
}

/** Composes the sandbox over either kind of state. */
function composeSandbox<Of extends Timing>(
  resolved: ResolvedOptions,
  router: ReturnType<typeof createRouter>,
  state: SandboxState<Of>,
  startUp: Origin,
  defaultOrigin: { current: Origin },
): Sandbox<Of> {
  const { requestLog } = state
  const operationIds = router.operations().map((operation) => operation.operationId)
  const apiKeys = createKeyControls({
    keyRing: createKeyRing(resolved.keys),
    storage: state.keyStorage,
    adminToken: resolved.adminToken,
    boundKeys: state.boundKeys,
    afterRevoke: (key) => sessions.forgetKey(key),
  })
  const keyRing = apiKeys.ring
  const { boundKeys } = state
  const secrets = (): Secrets => ({
    keys: [...keyRing.keys.map((apiKey) => apiKey.key), ...boundKeys.tokens()],
    adminToken: resolved.adminToken,
  })
  const forcible = forcibleStatuses(openapiDocument)
  const knownScenarios = resolveScenarios(resolved.scenarios.custom, forcible)
  checkScenarioKeys(resolved.scenarios.keys, knownScenarios, keyRing)
  const worldOptions: WorldOptions = {
    knownScenarios,
    isKey: (key) => keyRing.find(key) !== undefined,
    sleep: resolved.sleep ?? realSleep,
    defaultStatus: resolved.defaultStatus,
    now: () => state.clock.now(),
  }
  // Seeding and resets in any store make /readyz answer 503.
  const storeWork = createStoreWork()
  const { tracked } = storeWork
  const processParts = { resolved, keyRing, secrets, requestLog, operationIds, tracked }
  const carriers = carrierParts(processParts, knownScenarios, boundKeys)
  const sessions = createSessionLifecycle({
    state,
    startUp,
    defaultOrigin,
    world: worldOptions,
    carriers,
    secrets,
    tracked,
    limits: resolved.sessions,
    journaled: resolved.storage !== undefined,
  })
  const defaultWorld = sessions.default
  const process: ProcessControls<Of> = {
    ...processParts,
    addressLimiter: defaultWorld.rateLimiter,
    now: () => defaultWorld.clock.now(),
    carriers,
  }

  const tail = createAnswerTail({
    requestLog,
    now: () => defaultWorld.clock.now(),
    onUnexpectedError: resolved.onUnexpectedError,
    secrets,
  })
  const parts: Omit<ApiHandlerParts, 'scope'> = {
    router,
    keyRing,
    addressLimiter: defaultWorld.rateLimiter,
    validator: createRequestValidator(openapiDocument),
    deprecations: createDeprecations(router.operations(), resolved.deprecation),
    cors: createCors(resolved.corsOrigins),
    forcible,
    prefer: resolved.prefer,
    tail,
    storeSettled: storeWork.settled,
    boundKeys,
    worlds: sessions,
  }
  const handlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl) })]
  const originHandlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl, true) })]

  // It rejects `ready()`, where the caller hears it.
  tracked(defaultWorld.store.start()).catch(() => undefined)
  const readiness = createReadiness([storeWork.check, ...state.checks])
  const sessionOf = createSessionOf(sessions, process, handlers, boundKeys)
  const sandboxSessions = createSandboxSessions(sessions, process)
  const sandbox: Sandbox<Of> = {
    ...createSessionControls(defaultWorld, process),
    handlers,
    originHandlers,
    fetch: createSandboxFetch(handlers, resolved.baseUrl),
    get keys() {
      return keyRing.keys
    },
    secrets,
    apiKeys,
    ready: defaultWorld.store.ready,
    readiness: readiness.current,
    session: (name) => sessionOf(sessions.world(name)),
    sessions: sandboxSessions,
    close: state.close,
  }
  const origin = resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin
  if (resolved.adminToken !== undefined) {
    // First: the origin-wide handler would answer /__sandbox 404.
    const admin = createAdminHandler({
      controls: {
        clock: defaultWorld.clock,
        session: (name) => {
          const world = name === undefined ? defaultWorld : sessions.world(name, 'X-Sandbox-Session')
          return { ...sessionOf(world), clock: world.clock }
        },
        apiKeys: sandbox.apiKeys,
        sessions: {
          ...sandboxSessions,
          addKey: (name, init) => sandbox.session(name).keys.add(init as SessionKeyInit),
        },
        secrets,
        ...(resolved.proxyState === undefined ? {} : { proxyState: resolved.proxyState }),
        ...(resolved.shadowReport === undefined ? {} : { shadowReport: resolved.shadowReport }),
      },
      gate: resolved.adminGate ?? createAdminGate({ token: resolved.adminToken, now: defaultWorld.clock.now }),
      tail,
      origin,
    })
    handlers.unshift(admin)
    originHandlers.unshift(admin)
  }
  // Origin-wide only: in-process handlers leave other servers' probes alone.
  originHandlers.unshift(createProbeHandler({ readiness: readiness.current, origin, tail }))
  return sandbox
}
