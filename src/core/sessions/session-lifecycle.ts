import type { BoundKey } from '../auth/create-bound-keys.js'
import { createMasker, type Secrets } from '../auth/create-masker.js'
import { maskKey } from '../auth/mask-key.js'
import { ConfigError } from '../errors/config-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { MaybePromise, Timing } from '../state/maybe-promise.js'
import type { DropReason } from '../state/shared-state.js'
import type { PetRepository } from '../state/pet-repository.js'
import { createOperations } from '../operations/operation-table.js'
import { createScenarios } from '../scenarios/create-scenarios.js'
import type { Capsule } from './capsule.js'
import type { Origin, OriginHolder } from './origin.js'
import { SessionConflict, SessionsNotServed, UnknownSession } from './session-errors.js'
import {
  checkSessionName,
  DEFAULT_SESSION,
  type RequestedSession,
  readSessionName,
  type SessionName,
  sessionNameRefusal,
} from './session-name.js'
import type { World, WorldOptions, WorldBacking } from './world.js'
import { capsuleOrigin, forkOrigin, resetWorld, type WorldCarrierParts } from './world-table.js'

/** Holds a state's parts for the sessions (sandbox-state.ts). */
export interface SessionsBacking<Of extends Timing> extends WorldBacking<Of> {
  /** Makes a named session's parts; undefined where not served (501). */
  session: ((name: SessionName, origin: OriginHolder) => WorldBacking<Of>) | undefined
  /** Refuses a world whose pets would pass maxPets (D23). */
  admit?(origin: Origin, replacing: PetRepository<Of> | undefined): void
  registry(options: SessionsOptions<World<Of>>): SessionRegistry<World<Of>>
}

/** Starts a session from a capsule, a fork, or start-up. */
export interface SessionStart {
  capsule?: Capsule
  from?: string
}

export interface SessionLifecycleOptions<Of extends Timing> {
  state: SessionsBacking<Of>
  startUp: Origin
  defaultOrigin: OriginHolder
  world: WorldOptions
  carriers: WorldCarrierParts
  /** Returns the secrets no session may be named after (D35). */
  secrets: () => Secrets
  /** Marks the store busy (/readyz 503) while `work` runs. */
  tracked(work: Promise<void>): Promise<void>
  limits: Pick<SessionsOptions<World<Of>>, 'max' | 'idleMs' | 'onDrop'>
  /** Tells whether `--state` journals the default session (D34). */
  journaled: boolean
}

export type { DropReason }

export interface DeleteSessionsOptions {
  prefix?: string
}

export interface Registered {
  readonly name: SessionName
  lastUsed: number
}

export interface SessionRegistry<W extends Registered> {
  readonly default: W
  /** Returns `name`'s world, counting a use. */
  use(name: SessionName): W | undefined
  add(world: W): W
  /** Finds `name`'s world, counting no use. */
  find(name: SessionName): MaybePromise<W | undefined>
  /** Tells whether a new session waits for admission (D34). */
  readonly keepsAfterAdmission?: boolean
  /** Lists the default session, then the most recently used. */
  list(): MaybePromise<W[]>
  put(world: W): MaybePromise<W>
  delete(name: SessionName): MaybePromise<boolean>
  used?(name: SessionName): void
  /** Shares the default session's new origin. */
  putDefault?(origin: Origin): Promise<void>
}

export interface SessionsOptions<W extends Registered> {
  default: W
  /** Makes a new session's world. */
  fresh(name: SessionName): W
  dispose(world: W): void
  /** Caps the named sessions, dropping the least recently used (D34). */
  max: number
  idleMs: number
  /** Reads the default session's clock (D34). */
  now: () => number
  onDrop?: ((name: string, reason: DropReason) => void) | undefined
}

/** Makes, finds, forks, replaces and drops the sessions (D34), checking every name. */
export function createSessionLifecycle<Of extends Timing>(options: SessionLifecycleOptions<Of>) {
  const { state, startUp, defaultOrigin, carriers, secrets } = options
  const defaultWorld: World<Of> = worldOver(DEFAULT_SESSION, state, defaultOrigin, options.world)
  const make = (name: SessionName, origin: Origin): World<Of> => {
    if (state.session === undefined) throw new SessionsNotServed()
    const holder = { current: origin }
    const world = worldOver(name, state.session(name, holder), holder, options.world)
    world.store.start().catch(() => undefined)
    return world
  }
  const registry = state.registry({
    default: defaultWorld,
    fresh: (name) => make(name, startUp),
    dispose(world) {
      world.release()
      carriers.requests.clear({ session: world.session })
      carriers.bound.release(world.name)
    },
    ...options.limits,
    now: options.world.now,
  })
  const worldOf = (name: SessionName): World<Of> => registry.use(name) ?? registry.add(make(name, startUp))
  const served = (what?: string): void => {
    if (state.session === undefined) throw new SessionsNotServed(what)
  }
  const find = async (name: string): Promise<World<Of> | undefined> => {
    const read = readSessionName(name, 'session name')
    return typeof read === 'string' ? registry.find(read) : undefined
  }

  async function originOf(start: SessionStart): Promise<Origin> {
    if (start.capsule !== undefined) return capsuleOrigin(start.capsule, carriers)
    if (start.from === undefined) return startUp
    const source = await find(start.from)
    if (source === undefined) throw new UnknownSession('from', start.from)
    if (source.fork === undefined) throw new SessionsNotServed('Forks')
    await source.store.ready()
    await source.clock.sync()
    return forkOrigin(source, source.fork())
  }

  async function bindable(name: SessionName, origin: Origin): Promise<void> {
    if (name === DEFAULT_SESSION)
      throw new ConfigError(
        'capsule.boundKeys: the default session takes no bound keys: restore it into a named session',
      )
    const keys = origin.boundKeys.map((apiKey) => apiKey.key)
    const elsewhere = await carriers.bound.boundElsewhere(name, keys)
    if (elsewhere !== undefined)
      throw new SessionConflict(
        `capsule.boundKeys: ${maskKey(elsewhere.key)} is bound to session ${JSON.stringify(elsewhere.session)}:` +
          ' delete that session, or restore the capsule into it',
      )
  }

  async function replaceDefault(origin: Origin): Promise<World<Of>> {
    // The journal holds changes over the start-up pets only (D34).
    if (origin !== startUp && options.journaled) {
      throw new SessionConflict(
        'with --state the default session starts over only from the start-up world: PUT it {},' +
          ' or fork into a named session',
      )
    }
    defaultWorld.origin = origin
    defaultWorld.faults.configure(origin.faults)
    await registry.putDefault?.(origin)
    await options.tracked(resetWorld(defaultWorld, carriers, { clock: true }))
    return defaultWorld
  }

  return {
    default: defaultWorld,
    /** Returns the world a request names, or the default with a refusal. */
    named({
      name: requested,
      where,
    }: RequestedSession): World<Of> & { refusal?: HttpError; settle?: (admitted: boolean) => void } {
      const read = readSessionName(requested, where, secrets())
      if (typeof read !== 'string')
        return { ...defaultWorld, refusal: new HttpError(400, ErrorCode.invalidRequest, read.refusal) }
      const name = read
      if (name !== DEFAULT_SESSION && state.session === undefined)
        return {
          ...defaultWorld,
          refusal: new HttpError(501, ErrorCode.notImplemented, new SessionsNotServed().message),
        }
      if (!registry.keepsAfterAdmission) return worldOf(name)
      const found = registry.use(name)
      if (found !== undefined) return found
      // Kept once admitted (nothing runs between decision and settle); a refusal makes none (D34).
      const made: World<Of> & { settle?: (admitted: boolean) => void } = make(name, startUp)
      made.settle = (admitted) => {
        made.settle = undefined
        if (admitted) registry.add(made)
        else made.release()
      }
      return made
    },
    /** Returns a bound key's session's world (D46). */
    bound(bound: BoundKey, named: RequestedSession | undefined): World<Of> & { refusal?: HttpError } {
      // In memory `find` sweeps first: a dropped session took its keys.
      const session = readSessionName(bound.session, 'bound session')
      if (typeof session !== 'string') return defaultWorld
      if (carriers.bound.ask === undefined && registry.find(session) === undefined) return defaultWorld
      const world = worldOf(session)
      if (named === undefined || named.name === bound.session) return world
      const refused = sessionNameRefusal(named.name, named.where, secrets())
      const mask = createMasker(secrets()).text
      const contradiction =
        `the API key is bound to session ${JSON.stringify(mask(bound.session))},` +
        ` and ${named.where} names session ${JSON.stringify(mask(named.name))}:` +
        ` send no ${named.where}, or one naming the key's session`
      return { ...world, refusal: new HttpError(400, ErrorCode.invalidRequest, refused ?? contradiction) }
    },
    /** Returns `name`'s world for a call, counting a use. */
    world(given: string, where = 'session name'): World<Of> {
      const name = checkSessionName(given, where, secrets())
      if (name !== DEFAULT_SESSION) served()
      const world = worldOf(name)
      registry.used?.(name)
      return world
    },
    find,
    served,
    list: async (): Promise<World<Of>[]> => registry.list(),
    /** Puts `name` in place from `start`, within maxPets (D23). */
    async put(given: string, start: SessionStart): Promise<World<Of>> {
      const name = checkSessionName(given, 'session name', secrets())
      if (name !== DEFAULT_SESSION) served()
      if (start.capsule !== undefined) served('Capsules')
      const origin = await originOf(start)
      if (origin.boundKeys.length > 0) await bindable(name, origin)
      if (origin !== startUp)
        state.admit?.(origin, name === DEFAULT_SESSION ? defaultWorld.store : (await find(name))?.store)
      if (name === DEFAULT_SESSION) return replaceDefault(origin)
      const made = await registry.put(make(name, origin))
      if (origin.boundKeys.length > 0) await carriers.bound.bind(name, origin.boundKeys)
      return made
    },
    async forgetKey(key: string): Promise<void> {
      for (const world of await registry.list()) await world.scenarios.forget(key)
    },
    async delete(name: string): Promise<boolean> {
      return registry.delete(checkSessionName(name, 'session name'))
    },
    /** Deletes the named sessions starting with `prefix`. */
    async deleteAll(prefix?: string): Promise<string[]> {
      const deleted: string[] = []
      for (const world of await registry.list()) {
        if (world.name === DEFAULT_SESSION || (prefix !== undefined && !world.name.startsWith(prefix))) continue
        // Another process may delete it meanwhile.
        if (await registry.delete(world.name)) deleted.push(world.name)
      }
      return deleted
    },
  }
}

export type SessionLifecycle<Of extends Timing> = ReturnType<typeof createSessionLifecycle<Of>>

function worldOver<Of extends Timing>(
  name: SessionName,
  backing: WorldBacking<Of>,
  origin: OriginHolder,
  options: WorldOptions,
): World<Of> {
  const { store } = backing
  const created = options.now()
  return {
    name,
    session: name === DEFAULT_SESSION ? undefined : name,
    clock: backing.clock,
    store,
    rateLimiter: backing.rateLimiter,
    faults: backing.faults,
    shareFaults: backing.shareFaults,
    scenarios: createScenarios({
      known: options.knownScenarios,
      initial: () => origin.current.scenarios,
      seed: () => origin.current.seed,
      sleep: options.sleep,
      isKey: options.isKey,
      shared: backing.scenarios,
    }),
    operations: createOperations(store, { defaultStatus: options.defaultStatus }),
    ready: store.ready,
    get origin() {
      return origin.current
    },
    set origin(next) {
      origin.current = next
    },
    created,
    lastUsed: created,
    fork: backing.fork,
    release: backing.release,
  }
}
