import type { NewPet, Pet } from '../store/pet.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { PetRepository } from './pet-repository.js'
import type { Bucket, RateLimitBackend } from './rate-limit-backend.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { InSession, RequestLogEntry } from '../request-log/create-request-log.js'
import type { KeyStorage } from '../auth/key-storage.js'
import type { BoundKeys } from '../auth/create-bound-keys.js'

/**
 * Where the sandbox clock's offset from its time source lives (D20): in the clock (`'now'`), or
 * shared by several processes (`'later'`), where `get` is the last offset seen and moves finish
 * when they resolve.
 */
export interface ClockOffset<Of extends Timing = Timing> {
  get(): number
  set(offset: number): Answer<void, Of>
  add(ms: number): Answer<void, Of>
  /** Reads the shared offset again, for a clock read that must see every process's moves. */
  refresh?(): Promise<void>
}

/** What the seeded pets are, so processes sharing one state can tell whether they agree. */
export interface PetSeeding {
  seed: number
  /** The highest seeded id: the count of generated pets, or the last given pet's id. */
  pets: number
  /** The seeded pets in id order; one without an id takes the one after the pet before it. */
  draw: () => Iterable<NewPet & { id?: number }>
  /**
   * Whether the pets were given (`createSandbox({ pets: [...] })`, `--pets-file`) rather than
   * generated: their identity is then what `draw` yields, not the seed and count.
   */
  given?: boolean
  /**
   * The rest of the start-up world a session the state makes starts from, when it is not the
   * time source's with no quota used (a `--from` capsule's, `startAt`): the next id when beyond
   * the last pet's, the clock's instant, each key's buckets (`key:<key>`).
   */
  world?: { nextId: number; clock: number | undefined; quotas: ReadonlyMap<string, Bucket> }
}

/**
 * State several sandbox processes share, so they answer as one sandbox (docs/decisions.md#d21):
 * made in Node by `connectRedisState` (petstore-sandbox/redis) and given to `createSandbox` as
 * its `shared` option. The core only knows this interface.
 */
export interface SharedState {
  /** A short name of where the state lives, for the banner, e.g. `redis://127.0.0.1:6379`. */
  readonly where: string
  /** `maxPets` bounds the pets stored across every process: a create beyond it is refused (D23). */
  pets(seeding: PetSeeding, limits: { maxPets: number }): PetRepository<'later'>
  /** `source` is the time source without the shared clock offset, which the backend adds. */
  rateLimits(policy: { source: () => number; banAfter: number; banSeconds: number }): RateLimitBackend<'later'>
  readonly clockOffset: ClockOffset<'later'>
  readonly faults: {
    /** The configuration set through any process, or undefined while none was set. */
    current(): ResolvedFaults | undefined
    set(faults: ResolvedFaults): Promise<void>
    /**
     * Changes whenever any process resets the shared state, as this process learns it (with its
     * next request's rate-limit decision): each process then starts its fault draws over, as a
     * reset does on one process.
     */
    resets(): string
  }
  /**
   * The last `capacity` answered requests of every process and session, masked as the sandbox
   * shows them, each tagged with its session; a session's reset (its pets') or drop takes that
   * session's entries out, for every process.
   */
  requestLog(capacity: number): SharedRequestLog
  /** Each key's scenario, followed by every process (docs/decisions.md#d29); without it a process keeps its own. */
  readonly scenarios?: SharedScenarios
  /** Keys added, re-planned or revoked at runtime, followed by every process (docs/decisions.md#d22). */
  readonly keys?: KeyStorage
  /**
   * The keys bound to sessions (docs/decisions.md#d46), for every process: a session's go with it
   * wherever it goes; without it a process binds its own.
   */
  readonly boundKeys?: BoundKeys
  /**
   * The named sessions (docs/decisions.md#d34), one registry across the processes sharing the
   * state: each session's world, its use, listing, forks and replacements, deletion, and the drops
   * beyond `policy.max` or idle past `policy.idleMs`, decided in the state so every process agrees.
   * Without it, a request naming a session is answered 501 `not_implemented`.
   */
  sessions?(policy: SharedSessionsPolicy): SharedSessions
  /** Why the shared state cannot serve right now (Redis unreachable), or undefined: for readiness probes. */
  notReady(): string | undefined
  /** What the state notes while it serves (a Redis Cluster master without a replica), or undefined: for the banner and `/readyz`. */
  detail?(): string | undefined
  close(): Promise<void>
}

/** What a shared state gives for one session's world: the default session's members, for that session. */
export type SharedWorld = Pick<SharedState, 'pets' | 'rateLimits' | 'clockOffset' | 'faults' | 'scenarios'>

/** Where a session's world came from: the start-up world, another session (a fork), or a capsule (docs/decisions.md#d34). */
export type OriginKind = 'start-up' | 'fork' | 'capsule'

/** Why a named session was dropped without being asked to: idle past `idleMs`, or the least recently used beyond `max`. */
export type DropReason = { kind: 'idle'; idleMs: number } | { kind: 'least-recently-used'; max: number }

/** What bounds a shared state's named sessions: the options a sandbox keeps them by (docs/decisions.md#d34). */
export interface SharedSessionsPolicy {
  /** Named sessions kept at most (the default excluded); beyond it the least recently used goes. */
  max: number
  /** A named session unused this long, by the default session's clock, is dropped. */
  idleMs: number
  /** The most pets stored (D23): a session put with pets of its own beyond it is refused; undefined: unbounded. */
  maxPets?: number
  /** The time source without any clock offset: the state adds the default session's offset to date uses. */
  source: () => number
  /** Told of each drop this process made (the CLI prints a line); a drop another process made is its to tell. */
  onDrop?: ((name: string, reason: DropReason) => void) | undefined
  /**
   * Told of a named session this process holds a world of that another process reset, replaced or
   * dropped (seen within a second): what this process kept of it (its HAR's exchanges) is of a world gone.
   */
  onStale?: ((name: string) => void) | undefined
}

/** The named sessions of a shared state: the registry every process sharing it follows. */
export interface SharedSessions {
  /**
   * The world of session `name` (`default` included). Costs nothing in the state until used: the
   * state makes a session from the start-up world the first time anything reads or writes it, and
   * a request's rate-limit decision counts its use in the same step.
   */
  world(name: string): SharedWorld
  /** Counts a use of named session `name` (an admin or library call), making it when absent; answers what the state keeps of it. */
  use(name: string): Promise<SharedSessionInfo>
  /** What the state keeps of session `name` (`default` included), or undefined when there is no such named session; counts no use. */
  find(name: string): Promise<SharedSessionInfo | undefined>
  /** The named sessions, the most recently used first (those idle past the policy dropped first). */
  list(): Promise<SharedSessionInfo[]>
  /**
   * Makes session `name` anew from `origin`, replacing the one of that name (its pets, quotas and
   * log entries go): fresh, a fork of another session's world as it is now, or a capsule. For the
   * default session, its origin is replaced and its world put back to it.
   */
  put(name: string, origin: SharedOrigin): Promise<SharedSessionInfo>
  /** Deletes named session `name`, its pets, quotas and log entries; false when there is none. */
  delete(name: string): Promise<boolean>
}

/** A session as a shared state keeps it: when it was made and last used (the default session's clock, epoch ms), and its origin. */
export interface SharedSessionInfo {
  name: string
  created: number
  lastUsed: number
  origin: SharedOriginInfo
}

/**
 * A world's settings (core/sessions/world-table.ts says which entries they are): plain values a
 * shared state keeps as one, where pets, quotas and log entries are kept in keys of their own.
 */
export interface WorldSettings {
  /** The clock's instant, from which it runs on; undefined: the time source's own. */
  clock: number | undefined
  faults: ResolvedFaults
  scenarios: Readonly<Record<string, string>>
  /** The seed of the scenarios' draws. */
  seed: number
}

/**
 * What a shared state keeps of a session's origin beyond its pets and quotas (which it keeps
 * itself and puts back on a reset): its kind, the session a fork came from, and the settings a
 * reset returns to (those it does not keep are the start-up world's).
 */
export interface SharedOriginInfo {
  kind: OriginKind
  from?: string | undefined
  settings?: Partial<WorldSettings> | undefined
}

/**
 * Where `SharedSessions.put` makes a session from, and what its resets return to: the start-up
 * world, session `from`'s world as the state holds it at that moment (its pets and key quotas
 * copied), or a capsule's world (its pets stand alone, over no start-up pets); with the settings
 * the session starts with.
 */
export type SharedOrigin = { settings: WorldSettings } & (
  | { kind: 'start-up' }
  | { kind: 'fork'; from: string }
  | {
      kind: 'capsule'
      pets: readonly Pet[]
      nextId: number
      /** The key buckets (`key:<key>`), as the rate limiter keeps them. */
      quotas: ReadonlyMap<string, Bucket>
    }
)

/** Each key's scenario, as every process sharing the state sees it. */
export interface SharedScenarios {
  /** The scenarios last set through any process (a new object on each change), or undefined while none were. */
  current(): Readonly<Record<string, string>> | undefined
  /** Replaces every key's scenario, for every process. */
  set(scenarios: Readonly<Record<string, string>>): Promise<void>
  /** The seed of the draws the session was made with through any process, or undefined while the state keeps none. */
  seed(): number | undefined
}

/** The request log of every process sharing the state. */
export interface SharedRequestLog {
  /** Records an entry this process answered (already masked); never waits, never fails. */
  record(entry: RequestLogEntry): void
  /** The last `limit` entries (default all kept) of one session, oldest first. */
  last(limit: number | undefined, of: InSession): Promise<RequestLogEntry[]>
  /** How many entries of one session the log keeps. */
  count(of: InSession): Promise<number>
  /**
   * Calls `listener` with each entry the other processes record, as they send it; this process's
   * own entries are not repeated (the sandbox tells its watchers of them itself). Returns the stop.
   */
  watchOthers(listener: (entry: RequestLogEntry) => void): () => void
}
