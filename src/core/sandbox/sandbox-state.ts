import type { Secrets } from '../auth/create-masker.js'
import type { KeyStorage } from '../auth/key-storage.js'
import { createClock } from '../clock/create-clock.js'
import { createFaultInjector, type FaultInjector } from '../faults/create-fault-injector.js'
import type { ReadinessCheck } from '../probes/create-readiness.js'
import { createRateLimiter } from '../rate-limit/create-rate-limiter.js'
import {
  createRequestLog,
  type InSession,
  type KeptExchange,
  type LogSelection,
  pickLast,
  type RequestLog,
  type RequestLogEntry,
} from '../request-log/create-request-log.js'
import type { Answer, Timing } from '../state/maybe-promise.js'
import type {
  DropReason,
  SharedSessions,
  SharedSessionsPolicy,
  SharedState,
  SharedWorld,
} from '../state/shared-state.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import { createLru } from '../cache/create-lru.js'
import { defaultNotDeleted } from '../sessions/session-errors.js'
import { DEFAULT_SESSION, type SessionName } from '../sessions/session-name.js'
import { createSharedSessions } from '../sessions/create-shared-sessions.js'
import { type BoundKeys, createBoundKeys } from '../auth/create-bound-keys.js'
import type { PetBase } from '../store/create-pet-base.js'
import {
  createPetPool,
  createPetStore,
  originAdds,
  type PetStorage,
  type PetStore,
  sessionTooLarge,
} from '../store/create-pet-store.js'
import type { OriginHolder } from '../sessions/origin.js'
import type { Registered, SessionRegistry, SessionsBacking, SessionsOptions } from '../sessions/session-lifecycle.js'
import type { WorldBacking } from '../sessions/world.js'
import type { NewPet } from '../store/pet.js'
import type { ResolvedOptions } from './resolve-options.js'

/** Holds a sandbox's state, in memory or shared (D21). */
export interface SandboxState<Of extends Timing> extends SessionsBacking<Of> {
  keyStorage: KeyStorage | undefined
  boundKeys: BoundKeys
  requestLog: {
    record: RequestLog['record']
    /** Selects this process's entries, with bodies. */
    select(selection: LogSelection, of: InSession): KeptExchange[]
    exchange(id: string, of: InSession): KeptExchange | undefined
    /** Selects one session's entries of every process. */
    last(selection: LogSelection, of: InSession): Answer<RequestLogEntry[], Of>
    count(of: InSession): Answer<number, Of>
    /** Hears every session and process. */
    onRequest(listener: (entry: RequestLogEntry) => void): () => void
    clear(of: InSession): void
  }
  checks: ReadinessCheck[]
  close(): Promise<void>
}

export interface StateInputs {
  resolved: ResolvedOptions
  seed: () => Iterable<NewPet & { id?: number }>
  secrets: () => Secrets
  origin: OriginHolder
  base: PetBase
}

/** Creates the sandbox's state in its memory. */
export function ownState({ resolved, seed, secrets, origin, base }: StateInputs): SandboxState<'now'> {
  const policy = { banAfter: resolved.banAfter, banSeconds: resolved.banSeconds }
  const log = resolved.requestLog ?? createRequestLog(resolved.requestLogSize, secrets)
  const { storage } = resolved
  // The start-up pets once, and each a session adds (D23, D34).
  const pool = createPetPool(resolved.maxPets)
  const stores = new WeakMap<object, PetStore>()
  const world = (origin: OriginHolder, storage?: PetStorage): WorldBacking<'now'> => {
    const pets = () => origin.current.pets!()
    const clock = createClock(resolved.now)
    const at = origin.current.clock
    if (at !== undefined) clock.set(at)
    const limiter = createRateLimiter({ now: clock.now, ...policy })
    limiter.load(origin.current.quotas)
    const store = createPetStore({
      origin: pets,
      pool,
      filled: () => pets().base.filled(),
      ...(storage ? { storage } : {}),
    })
    stores.set(store, store)
    const injector = createFaultInjector({
      faults: origin.current.faults,
      ...(resolved.sleep ? { sleep: resolved.sleep } : {}),
    })
    return {
      clock,
      store,
      rateLimiter: {
        ...limiter,
        clear() {
          limiter.clear()
          limiter.load(origin.current.quotas)
        },
      },
      faults: injector,
      shareFaults: () => injector.config(),
      scenarios: undefined,
      fork: () => ({
        pets: (
          (snapshot) => () =>
            snapshot
        )(store.snapshot()),
        quotas: limiter.snapshot('key:'),
      }),
      release: store.release,
    }
  }
  const startUp = world(origin, storage)
  // Once, for every session.
  const defaultStore = {
    ...startUp.store,
    start() {
      base.fill(seed()).catch(() => undefined)
      return startUp.store.start()
    },
  }
  stores.set(defaultStore, stores.get(startUp.store)!)
  return {
    ...startUp,
    store: defaultStore,
    admit(next, replacing) {
      const pets = next.pets!()
      const adds = originAdds(pets)
      const freed = replacing === undefined ? 0 : (stores.get(replacing)?.freed(pets.base) ?? 0)
      if (!pool.fits(adds - freed)) throw sessionTooLarge(pool.maxPets, adds)
    },
    session: (_name, origin) => world(origin),
    registry: ownSessions,
    keyStorage: resolved.keyStorage,
    boundKeys: createBoundKeys(),
    requestLog: {
      record: log.record,
      select: log.select,
      exchange: log.exchange,
      last: (selection, of) => log.select(selection, of).map((exchange) => exchange.entry),
      count: log.count,
      onRequest: log.subscribe,
      clear: log.clear,
    },
    checks: [
      ...(storage?.notReady ? [{ name: 'storage', notReady: () => storage.notReady?.() }] : []),
      ...(resolved.keyStorage?.notReady
        ? [{ name: 'key storage', notReady: () => resolved.keyStorage?.notReady?.() }]
        : []),
    ],
    close: () => Promise.resolve(),
  }
}

/** Creates the state shared through `shared`. */
export function sharedState(
  { resolved, seed, secrets, origin }: StateInputs,
  shared: SharedState,
): SandboxState<'later'> {
  const localLog = resolved.requestLog ?? createRequestLog(resolved.requestLogSize, secrets)
  const sharedLog = shared.requestLog(resolved.requestLogSize)
  localLog.forward(sharedLog.record)
  const startUp = origin.current
  const seeding = {
    seed: resolved.seed,
    pets: resolved.lastSeededId,
    draw: seed,
    given: resolved.givenPets !== undefined,
    world: { nextId: resolved.from?.nextId ?? 0, clock: startUp.clock, quotas: startUp.quotas },
  }
  const world = (parts: SharedWorld, origin: OriginHolder): WorldBacking<'later'> => {
    const injector = createFaultInjector({
      faults: origin.current.faults,
      ...(resolved.sleep ? { sleep: resolved.sleep } : {}),
    })
    const following = followSharedFaults(injector, parts.faults, () => origin.current.faults)
    return {
      clock: createClock(resolved.now, parts.clockOffset),
      store: parts.pets(seeding, { maxPets: resolved.maxPets }),
      rateLimiter: parts.rateLimits({
        source: resolved.now,
        banAfter: resolved.banAfter,
        banSeconds: resolved.banSeconds,
      }),
      faults: following,
      shareFaults: (next) => parts.faults.set(next).then(following.config),
      scenarios: parts.scenarios,
      // The shared state copies forks.
      fork: shared.sessions === undefined ? undefined : () => ({ pets: undefined, quotas: new Map() }),
      release: () => undefined,
    }
  }
  let sessions: SharedSessions | undefined
  const registryOf = (policy: SharedSessionsPolicy): SharedSessions => {
    sessions ??= shared.sessions!({ ...policy, maxPets: resolved.maxPets })
    return sessions
  }
  return {
    ...world(shared, origin),
    session:
      shared.sessions === undefined
        ? undefined
        : (name, origin) => {
            if (sessions === undefined) throw new Error('a named session is met before the sandbox made its registry')
            return world(sessions.world(name), origin)
          },
    registry: (options) =>
      shared.sessions === undefined
        ? ownSessions(options)
        : createSharedSessions({ ...options, shared: registryOf, source: resolved.now, startUp }),
    keyStorage: shared.keys ?? resolved.keyStorage,
    boundKeys: shared.boundKeys ?? createBoundKeys(),
    requestLog: {
      record: localLog.record,
      // Bodies stay with the process that answered.
      select: localLog.select,
      exchange: localLog.exchange,
      last: async (selection, of) => {
        const kept = await sharedLog.last(selection.match === undefined ? selection.limit : undefined, of)
        return pickLast(
          kept,
          (entry) => entry,
          (entry) => entry,
          selection,
        )
      },
      count: (of) => sharedLog.count(of),
      onRequest(listener) {
        const stopLocal = localLog.subscribe(listener)
        const stopOthers = sharedLog.watchOthers(listener)
        return () => {
          stopLocal()
          stopOthers()
        }
      },
      clear: localLog.clear,
    },
    checks: [{ name: 'shared state', notReady: () => shared.notReady(), detail: () => shared.detail?.() }],
    close: () => shared.close(),
  }
}

const SWEEP_EVERY_MS = 1000

/** Creates the in-memory session registry (D34), swept lazily. */
function ownSessions<W extends Registered>({
  default: defaultWorld,
  dispose,
  max,
  idleMs,
  now,
  onDrop,
}: SessionsOptions<W>): SessionRegistry<W> {
  let sweptAt = Number.NEGATIVE_INFINITY
  const drop = (world: W, reason: DropReason | undefined) => {
    dispose(world)
    if (reason !== undefined) onDrop?.(world.name, reason)
  }
  const named = createLru<W>(
    () => max,
    (world) => drop(world, { kind: 'least-recently-used', max }),
  )
  const remove = (world: W, reason: DropReason | undefined) => {
    named.delete(world.name)
    drop(world, reason)
  }

  function sweep(at: number): void {
    // Also when the clock went back, or none would expire.
    if (at - sweptAt < SWEEP_EVERY_MS && at >= sweptAt) return
    sweptAt = at
    for (const world of named.values()) {
      if (at - world.lastUsed < idleMs) break
      remove(world, { kind: 'idle', idleMs })
    }
  }

  function add(world: W, at: number): W {
    world.lastUsed = at
    return named.put(world.name, world)
  }

  return {
    default: defaultWorld,
    use(name: SessionName): W | undefined {
      if (name === DEFAULT_SESSION) return defaultWorld
      const at = now()
      sweep(at)
      const found = named.use(name)
      if (found !== undefined) found.lastUsed = at
      return found
    },
    add: (world: W): W => add(world, now()),
    find(name: SessionName): W | undefined {
      if (name === DEFAULT_SESSION) return defaultWorld
      sweep(now())
      return named.peek(name)
    },
    keepsAfterAdmission: true,
    list(): W[] {
      sweep(now())
      return [defaultWorld, ...[...named.values()].reverse()]
    },
    put(world: W): W {
      const at = now()
      sweep(at)
      const replaced = named.peek(world.name)
      if (replaced !== undefined) remove(replaced, undefined)
      return add(world, at)
    },
    delete(name: SessionName): boolean {
      if (name === DEFAULT_SESSION) throw defaultNotDeleted()
      const found = named.peek(name)
      if (found === undefined) return false
      remove(found, undefined)
      return true
    },
  }
}

/** Makes the fault injector follow every process's faults and resets. */
function followSharedFaults(
  injector: FaultInjector,
  shared: SharedState['faults'],
  initial: () => ResolvedFaults,
): FaultInjector {
  let followed = shared.current()
  let resets = shared.resets()
  const follow = () => {
    const current = shared.current()
    if (current !== followed) {
      followed = current
      injector.configure(current ?? initial())
    }
    // So a run after a reset repeats (D21).
    const latest = shared.resets()
    if (latest !== resets) {
      resets = latest
      injector.restart()
    }
  }
  return {
    ...injector,
    config() {
      follow()
      return injector.config()
    },
    inject(operationId, headers) {
      follow()
      return injector.inject(operationId, headers)
    },
  }
}
