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

/** What a state gives the sessions beside the default session's world (sandbox-state.ts). */
export interface SessionsBacking<Of extends Timing> extends WorldBacking<Of> {
  /** Makes a named session's world from `origin.current`; undefined where no named sessions are kept (501). */
  session: ((name: SessionName, origin: OriginHolder) => WorldBacking<Of>) | undefined
  /** Refuses a world whose pets would pass maxPets (D23); undefined where the shared state bounds its own. */
  admit?(origin: Origin, replacing: PetRepository<Of> | undefined): void
  /** The registry of named sessions over this state: in its memory, or the shared state's. */
  registry(options: SessionsOptions<World<Of>>): SessionRegistry<World<Of>>
}

/** Where a session put in place starts: the start-up world, a capsule, or a fork of session `from`. */
export interface SessionStart {
  capsule?: Capsule
  from?: string
}

export interface SessionLifecycleOptions<Of extends Timing> {
  state: SessionsBacking<Of>
  startUp: Origin
  /** The default session's origin, which its state reads on each of its resets. */
  defaultOrigin: OriginHolder
  /** What every world is made with; its `now` also dates uses and drops. */
  world: WorldOptions
  carriers: WorldCarrierParts
  /** The keys in force and the admin token, which no session may be named (D35). */
  secrets: () => Secrets
  /** Marks the store busy while `work` runs: /readyz answers 503 meanwhile. */
  tracked(work: Promise<void>): Promise<void>
  /** The bounds of the named sessions (D34). */
  limits: Pick<SessionsOptions<World<Of>>, 'max' | 'idleMs' | 'onDrop'>
  /** Tells whether the default session's pets are journalled (`--state`), so it starts over only from start-up. */
  journaled: boolean
}

export type { DropReason }

/** Which named sessions `sessions.deleteAll` deletes: every one, or those starting with `prefix`. */
export interface DeleteSessionsOptions {
  prefix?: string
}

/** What the registry keeps of a world: its name, and when it was last used. */
export interface Registered {
  readonly name: SessionName
  lastUsed: number
}

/** The sessions of a sandbox, in its memory or in a shared state (create-shared-sessions.ts). */
export interface SessionRegistry<W extends Registered> {
  readonly default: W
  /** Returns the world kept of session `name`, counting a use; undefined when none, for `add`. */
  use(name: SessionName): W | undefined
  /** Keeps `world`, made from the start-up world for a session first met in a request or a call. */
  add(world: W): W
  /** The world of session `name` if it exists, without making it or counting a use. */
  find(name: SessionName): MaybePromise<W | undefined>
  /** Keeps a session first met in a request only once admission lets it through (in memory, D34). */
  readonly keepsAfterAdmission?: boolean
  /** Every session: the default first, then the most recently used. */
  list(): MaybePromise<W[]>
  /** Puts `world` in the registry as session `world.name`, replacing one of that name. */
  put(world: W): MaybePromise<W>
  /** Deletes a named session; false when there is none. The default session cannot be deleted. */
  delete(name: SessionName): MaybePromise<boolean>
  /** Counts a use other than by a request, for a shared registry. */
  used?(name: SessionName): void
  /** Keeps the default session's new origin where every process finds it. */
  putDefault?(origin: Origin): Promise<void>
}

export interface SessionsOptions<W extends Registered> {
  /** The default session's world, which is never dropped. */
  default: W
  /** Makes a fresh world for a session a shared state lists and this process has not met. */
  fresh(name: SessionName): W
  /** Lets go of a world that leaves the registry (dropped, deleted or replaced). */
  dispose(world: W): void
  /** Named sessions kept at most (the default excluded); beyond it the least recently used goes. */
  max: number
  /** A named session unused this long, by the default session's clock, is dropped. */
  idleMs: number
  /** The default session's clock (docs/decisions.md#d34: a test moves it to expire sessions). */
  now: () => number
  /** Told of every drop (the CLI prints a line). */
  onDrop?: ((name: string, reason: DropReason) => void) | undefined
}

/**
 * Makes, finds, forks, replaces and drops the sessions (D34), checking every name.
 *
 * @example
 * const sessions = createSessionLifecycle({ state, startUp, defaultOrigin, world, carriers, ...process })
 * await sessions.put('worker-1', { from: 'default' })
 */
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
      // A bound key goes with its session (D46).
      carriers.bound.release(world.name)
    },
    ...options.limits,
    now: options.world.now,
  })
  // The world of a session a request or a call names, made from the start-up world on its first use.
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

  // A key names one session (D46): nothing changes while one is bound to another.
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
    // The journal keeps the default session's own changes over the start-up pets, not a fork's.
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
    /** The world a request names; for a name the sandbox cannot serve, the default world and the refusal. */
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
      // Kept once admission lets the request through, at once after the decision (in memory
      // nothing runs between them); a refusal makes no session (D34).
      const made: World<Of> & { settle?: (admitted: boolean) => void } = make(name, startUp)
      made.settle = (admitted) => {
        made.settle = undefined
        if (admitted) registry.add(made)
        else made.release()
      }
      return made
    },
    /** The world of the session a bound key names (D46); a header or baggage naming another is refused. */
    bound(bound: BoundKey, named: RequestedSession | undefined): World<Of> & { refusal?: HttpError } {
      // Sweeps idle sessions first in memory: one that went took its keys, leaving the default world.
      // A bound key's session was checked as it was bound: read again here, it gives its SessionName.
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
    /** Returns session `name`'s world for a call, made on first use and counted. */
    world(given: string, where = 'session name'): World<Of> {
      const name = checkSessionName(given, where, secrets())
      if (name !== DEFAULT_SESSION) served()
      const world = worldOf(name)
      registry.used?.(name)
      return world
    },
    /** The world of session `name` if it exists, without making it or counting a use. */
    find,
    /** Throws SessionsNotServed ("`what` are not yet served") on a state that keeps no named sessions. */
    served,
    /** Every session: the default first, then the most recently used. */
    list: async (): Promise<World<Of>[]> => registry.list(),
    /** Puts session `name` in place from `start`, unless its pets would pass maxPets (D23). */
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
    /** Forgets `key`'s scenario in every session: a revoked key added again starts fresh. */
    async forgetKey(key: string): Promise<void> {
      for (const world of await registry.list()) await world.scenarios.forget(key)
    },
    /** Deletes named session `name`; false when there is none. */
    async delete(name: string): Promise<boolean> {
      return registry.delete(checkSessionName(name, 'session name'))
    },
    /** Deletes every named session, or those whose name starts with `prefix`; answers the names it deleted. */
    async deleteAll(prefix?: string): Promise<string[]> {
      const deleted: string[] = []
      for (const world of await registry.list()) {
        if (world.name === DEFAULT_SESSION || (prefix !== undefined && !world.name.startsWith(prefix))) continue
        // Another process may have deleted it meanwhile: only those this call deleted are named.
        if (await registry.delete(world.name)) deleted.push(world.name)
      }
      return deleted
    },
  }
}

export type SessionLifecycle<Of extends Timing> = ReturnType<typeof createSessionLifecycle<Of>>

/** Makes session `name`'s world of the parts `backing` holds, from `origin.current`. */
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
