import { createAdminGate } from '../admin/create-admin-gate.js'
import { createAdminHandler } from '../admin/create-admin-handler.js'
import { createKeyControls } from '../auth/create-key-controls.js'
import { createKeyRing } from '../auth/create-key-ring.js'
import { createMasker, type Secrets } from '../auth/create-masker.js'
import type { BoundKey } from '../auth/create-bound-keys.js'
import { maskKey } from '../auth/mask-key.js'
import type { ApiKey } from '../auth/key-config.js'
import { noConfiguredKey } from '../auth/no-configured-key.js'
import { checkInput } from '../contract/check-input.js'
import { createApiScope } from '../contract/create-api-scope.js'
import { createRouter } from '../contract/create-router.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import { realSleep } from '../faults/create-fault-injector.js'
import { createCors } from '../http/create-cors.js'
import { createDeprecations } from '../http/create-deprecations.js'
import type { WorldParts } from '../pipeline/api-handler-parts.js'
import { type ApiHandlerParts, createApiHandler } from '../pipeline/create-api-handler.js'
import { createProbeHandler } from '../probes/create-probe-handler.js'
import { createAnswerTail } from '../pipeline/answer-tail.js'
import { createReadiness } from '../probes/create-readiness.js'
import { unknownScenario } from '../scenarios/create-scenarios.js'
import { forcibleStatuses } from '../scenarios/forced-status.js'
import { resolveScenarios } from '../scenarios/scenario-config.js'
import type { Origin } from '../sessions/origin.js'
import type { RequestedSession } from '../sessions/requested-session.js'
import { capsuleOrigin, forkOrigin, startUpOrigin } from '../sessions/world-table.js'
import { readCapsule } from '../sessions/capsule.js'
import { learnCapsule } from '../learning/learn-capsule.js'
import {
  checkSessionName,
  DEFAULT_SESSION,
  isSecretName,
  isSessionName,
  secretNameRule,
  sessionNameRule,
} from '../sessions/session-name.js'
import { createWorld, type World, type WorldOptions } from '../sessions/world.js'
import { SessionConflict, SessionsNotServed, UnknownSession } from '../sessions/session-errors.js'
import type { Timing } from '../state/maybe-promise.js'
import { createPetBase } from '../store/create-pet-base.js'
import { seedPets } from '../store/seed-pets.js'
import { createRequestValidator } from '../validation/create-request-validator.js'
import { createSandboxFetch } from './create-sandbox-fetch.js'
import { carrierParts, createSessionControls, type ProcessControls, summarize } from './create-session-controls.js'
import { type ResolvedOptions, resolveOptions } from './resolve-options.js'
import type { Sandbox, Session, SessionInit, SessionKeyInit } from './sandbox.js'
import { createSessionKeys } from './create-session-keys.js'
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
  let boundInForce: () => readonly string[] = () => []
  // The start-up world (D34): what the default session and every fresh session start from.
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
    // Given pets replace the generated ones.
    seed: resolved.givenPets === undefined ? () => seedPets(resolved.seed, resolved.pets) : () => resolved.givenPets!,
    secrets: (): Secrets => ({
      keys: [...keysInForce().map((apiKey) => apiKey.key), ...boundInForce()],
      adminToken: resolved.adminToken,
    }),
    origin: () => defaultOrigin.current,
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

/** The sandbox's parts and controls over `state`, whichever kind it is. */
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
  })
  const keyRing = apiKeys.ring
  const { boundKeys } = state
  // Bound keys are masked as every key is (D35, D46).
  const secrets = (): Secrets => ({
    keys: [...keyRing.keys.map((apiKey) => apiKey.key), ...boundKeys.tokens()],
    adminToken: resolved.adminToken,
  })
  const forcible = forcibleStatuses(openapiDocument)
  const knownScenarios = resolveScenarios(resolved.scenarios.custom, forcible)
  for (const [key, name] of Object.entries(resolved.scenarios.keys ?? {})) {
    // Checked now, as any option is.
    if (keyRing.find(key) === undefined)
      throw ConfigError.ofEntry('scenarios.keys', key, noConfiguredKey(key, keyRing.keys))
    if (!knownScenarios.has(name))
      throw ConfigError.ofEntry('scenarios.keys', key, unknownScenario(name, [...knownScenarios.keys()]))
  }
  const worldOptions: WorldOptions = {
    knownScenarios,
    isKey: (key) => keyRing.find(key) !== undefined,
    sleep: resolved.sleep ?? realSleep,
    defaultStatus: resolved.defaultStatus,
    // The default session's clock: the state's own.
    now: () => state.clock.now(),
  }
  const defaultWorld: World<Of> = createWorld(DEFAULT_SESSION, state, startUp, worldOptions)

  // Seeding and resets in progress: /readyz answers 503 meanwhile, whichever store holds the pets.
  let filling = 0
  const tracked = (work: Promise<void>): Promise<void> => {
    filling++
    return work.finally(() => filling--)
  }
  const processParts = {
    resolved,
    keyRing,
    secrets,
    requestLog,
    addressLimiter: defaultWorld.rateLimiter,
    operationIds,
    tracked,
    now: () => defaultWorld.clock.now(),
  }
  const process: ProcessControls<Of> = {
    ...processParts,
    carriers: carrierParts(processParts, knownScenarios, boundKeys),
  }

  const sessions = state.registry({
    default: defaultWorld,
    fresh: (name) => namedWorld(name, startUp),
    dispose(world) {
      world.release()
      requestLog.clear({ session: world.session })
      // A bound key goes with its session (D46).
      boundKeys.release(world.name)
    },
    max: resolved.sessions.max,
    idleMs: resolved.sessions.idleMs,
    now: () => defaultWorld.clock.now(),
    onDrop: resolved.sessions.onDrop,
  })
  function namedWorld(name: string, origin: Origin): World<Of> {
    if (state.session === undefined) throw new SessionsNotServed()
    const world = createWorld(
      name,
      state.session(name, () => origin),
      origin,
      worldOptions,
    )
    world.store.start().catch(() => undefined)
    return world
  }
  // The world a request names; for a name the sandbox cannot serve, the default world and the refusal.
  const refusalOf = ({ name, where }: RequestedSession): HttpError | undefined => {
    if (!isSessionName(name)) return new HttpError(400, ErrorCode.invalidRequest, sessionNameRule(where))
    if (isSecretName(name, secrets())) return new HttpError(400, ErrorCode.invalidRequest, secretNameRule(where))
    if (name !== DEFAULT_SESSION && state.session === undefined)
      return new HttpError(501, ErrorCode.notImplemented, new SessionsNotServed().message)
    return undefined
  }
  const namedInRequest = (requested: RequestedSession): WorldParts => {
    const refusal = refusalOf(requested)
    return refusal === undefined ? sessions.world(requested.name) : { ...defaultWorld, refusal }
  }
  // The world of the session a bound key names (D46): a header or baggage naming another is refused.
  const boundInRequest = (bound: BoundKey, named: RequestedSession | undefined): WorldParts => {
    // In memory a lookup sweeps idle sessions first: one that went took its keys, and the request is the default world's.
    if (boundKeys.ask === undefined && sessions.find(bound.session) === undefined) return defaultWorld
    const world = sessions.world(bound.session)
    if (named === undefined || named.name === bound.session) return world
    const refused = refusalOf(named)
    const mask = createMasker(secrets()).text
    return {
      ...world,
      refusal:
        refused ??
        new HttpError(
          400,
          ErrorCode.invalidRequest,
          `the API key is bound to session ${JSON.stringify(mask(bound.session))}, and ${named.where} names session ${JSON.stringify(mask(named.name))}: send no ${named.where}, or one naming the key's session`,
        ),
    }
  }

  // The one tail every handler's answer ends through: Error bodies, masking, the request log.
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
    storeSettled: () => filling === 0,
    boundKeys,
    worlds: { default: defaultWorld, named: namedInRequest, bound: boundInRequest },
  }
  const handlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl) })]
  const originHandlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl, true) })]

  // A store that cannot start (shared state seeded otherwise) rejects `ready()`: the caller hears it.
  tracked(defaultWorld.store.start()).catch(() => undefined)
  const readiness = createReadiness([
    { name: 'store', notReady: () => (filling > 0 ? 'seeding the pets' : undefined) },
    ...state.checks,
  ])

  // Each world's controls, made once: the sandbox's own for the default one.
  const made = new WeakMap<World<Of>, Session<Of>>()
  const sessionOf = (world: World<Of>): Session<Of> => {
    let session = made.get(world)
    if (session === undefined) {
      session = {
        ...createSessionControls(world, process),
        name: world.name,
        fetch: createSandboxFetch(handlers, resolved.baseUrl, world.session),
        // A session dropped meanwhile is made again by the call, as any call in its name makes it.
        keys: createSessionKeys(world.name, boundKeys, async () => {
          sessionWorld(world.name)
        }),
      }
      made.set(world, session)
    }
    return session
  }
  // A name a session may have, and no key or admin token (D35).
  const checkNamed = (name: string, where: string): void => {
    checkSessionName(name, where)
    if (isSecretName(name, secrets())) throw new ConfigError(secretNameRule(where))
  }
  const sessionWorld = (name: string, where = 'session name'): World<Of> => {
    checkNamed(name, where)
    if (name !== DEFAULT_SESSION && state.session === undefined) throw new SessionsNotServed()
    const world = sessions.world(name)
    // An admin or library call in a session counts as a use, as a request does.
    sessions.used?.(name)
    return world
  }
  const known = async (name: string): Promise<World<Of> | undefined> =>
    isSessionName(name) ? sessions.find(name) : undefined
  const sandbox: Sandbox<Of> = {
    ...createSessionControls(defaultWorld, process),
    handlers,
    originHandlers,
    fetch: createSandboxFetch(handlers, resolved.baseUrl),
    get keys() {
      return keyRing.keys
    },
    secrets,
    // A revoked key's scenario goes with it, in every session: added again, the key starts fresh.
    apiKeys: {
      ...apiKeys,
      async revoke(key) {
        await apiKeys.revoke(key)
        for (const world of await sessions.list()) await world.scenarios.forget(key)
      },
    },
    ready: defaultWorld.store.ready,
    readiness: readiness.current,
    session: (name) => sessionOf(sessionWorld(name)),
    sessions: {
      list: async () => Promise.all((await sessions.list()).map((world) => summarize(world, process))),
      async get(name) {
        const world = await known(name)
        return world === undefined ? undefined : summarize(world, process)
      },
      async put(name, init = {}) {
        checkNamed(name, 'session name')
        // A capsule or a recording is checked on its own, so that a newer version is named before anything else.
        const { capsule: given, har, ...rest } = init as { capsule?: unknown; har?: unknown; from?: string }
        checkInput('SessionInit', rest, 'init')
        const sources = [
          given !== undefined && 'capsule',
          har !== undefined && 'har',
          rest.from !== undefined && 'from',
        ].filter(Boolean)
        if (sources.length > 1)
          throw new ConfigError(`init: give one of from, capsule or har, not ${sources.join(' and ')}`)
        if (name !== DEFAULT_SESSION && state.session === undefined) throw new SessionsNotServed()
        const from = rest.from
        let origin = startUp
        if (given !== undefined) {
          if (state.session === undefined) throw new SessionsNotServed('Capsules')
          origin = await capsuleOrigin(readCapsule(given, 'capsule'), process.carriers)
        } else if (har !== undefined) {
          if (state.session === undefined) throw new SessionsNotServed('Recordings')
          origin = await capsuleOrigin(learnCapsule(har, 'har', resolved.now()), process.carriers)
        } else if (from !== undefined) {
          const source = await known(from)
          if (source === undefined) throw new UnknownSession('from', from)
          if (source.fork === undefined) throw new SessionsNotServed('Forks')
          await source.store.ready()
          await source.clock.sync()
          origin = forkOrigin(source, source.fork())
        }
        // A key names one session (D46): nothing changes while one is bound to another.
        if (origin.boundKeys.length > 0) {
          if (name === DEFAULT_SESSION)
            throw new ConfigError(
              'capsule.boundKeys: the default session takes no bound keys: restore it into a named session',
            )
          const elsewhere = await boundKeys.boundElsewhere(
            name,
            origin.boundKeys.map((apiKey) => apiKey.key),
          )
          if (elsewhere !== undefined)
            throw new SessionConflict(
              `capsule.boundKeys: ${maskKey(elsewhere.key)} is bound to session ${JSON.stringify(elsewhere.session)}: delete that session, or restore the capsule into it`,
            )
        }
        // Nothing changes when the pets it brings would pass maxPets (D23), those of the world it replaces given back.
        if (origin !== startUp)
          state.admit?.(origin, name === DEFAULT_SESSION ? defaultWorld.store : (await known(name))?.store)
        if (name === DEFAULT_SESSION) {
          // The journal keeps the default session's own changes over the start-up pets, not a fork's.
          if (origin !== startUp && resolved.storage !== undefined) {
            throw new SessionConflict(
              'with --state the default session starts over only from the start-up world: PUT it {}, or fork into a named session',
            )
          }
          defaultOrigin.current = origin
          defaultWorld.origin = origin
          defaultWorld.faults.configure(origin.faults)
          await sessions.putDefault?.(origin)
          await createSessionControls(defaultWorld, process).reset({ clock: true })
          return summarize(defaultWorld, process)
        }
        const made = await sessions.put(namedWorld(name, origin))
        if (origin.boundKeys.length > 0) await boundKeys.bind(name, origin.boundKeys)
        return summarize(made, process)
      },
      async delete(name) {
        checkSessionName(name, 'session name')
        return sessions.delete(name)
      },
      async deleteAll({ prefix } = {}) {
        const deleted: string[] = []
        for (const world of await sessions.list()) {
          if (world.name === DEFAULT_SESSION || (prefix !== undefined && !world.name.startsWith(prefix))) continue
          // Another process may have deleted it meanwhile: only those this call deleted are named.
          if (await sessions.delete(world.name)) deleted.push(world.name)
        }
        return deleted
      },
      async capsule(name: string) {
        const world = await known(name)
        return world === undefined ? undefined : sessionOf(world).capsule()
      },
    },
    close: state.close,
  }
  const origin = resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin
  if (resolved.adminToken !== undefined) {
    // First in line: the origin-wide API handler would otherwise answer /__sandbox with a 404.
    const admin = createAdminHandler({
      controls: {
        clock: defaultWorld.clock,
        session: (name) => {
          const world = name === undefined ? defaultWorld : sessionWorld(name, 'X-Sandbox-Session')
          return { ...sessionOf(world), clock: world.clock }
        },
        apiKeys: sandbox.apiKeys,
        // The library checks what a client sent as it checks any caller's.
        sessions: {
          ...sandbox.sessions,
          put: (name, init) => sandbox.sessions.put(name, init as SessionInit),
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
  // Origin-wide only: in-process handlers without a baseUrl must leave other servers' probes alone.
  originHandlers.unshift(createProbeHandler({ readiness: readiness.current, origin, tail }))
  return sandbox
}
