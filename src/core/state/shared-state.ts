import type { NewPet, Pet } from '../store/pet.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { PetRepository } from './pet-repository.js'
import type { Bucket, RateLimitBackend } from './rate-limit-backend.js'
import type { Answer, Timing } from './maybe-promise.js'

/** Brands a session name that passed `checkSessionName` or `readSessionName` (core/sessions). */
export type SessionName = string & { readonly sessionName: unique symbol }
import type { InSession, RequestLogEntry } from '../request-log/create-request-log.js'
import type { KeyStorage } from '../auth/key-storage.js'
import type { BoundKeys } from '../auth/create-bound-keys.js'

/** Where the clock's offset lives (D20): in the clock, or shared, `get` being the last offset seen. */
export interface ClockOffset<Of extends Timing = Timing> {
  get(): number
  set(offset: number): Answer<void, Of>
  add(ms: number): Answer<void, Of>
  /** Reads the shared offset again, for a clock read that must see every process's moves. */
  refresh?(): Promise<void>
}

/** Describes the seeded pets, so processes sharing one state can tell whether they agree. */
export interface PetSeeding {
  seed: number
  /** The highest seeded id: the count of generated pets, or the last given pet's id. */
  pets: number
  /** The seeded pets in id order; one without an id takes the one after the pet before it. */
  draw: () => Iterable<NewPet & { id?: number }>
  /** Tells whether the pets were given: then `draw`, not seed and count, is their identity (D33). */
  given?: boolean
  /** Holds the rest of a start-up world that is not the default one. */
  world?: { nextId: number; clock: number | undefined; quotas: ReadonlyMap<string, Bucket> }
}

/** Shares state between processes that answer as one sandbox (D21); made by `connectRedisState`. */
export interface SharedState {
  /** Names where the state lives, for the banner (`redis://127.0.0.1:6379`). */
  readonly where: string
  /** Returns the pets; a create beyond `maxPets` across every process is refused (D23). */
  pets(seeding: PetSeeding, limits: { maxPets: number }): PetRepository<'later'>
  /** Returns the rate limits; the backend adds the shared clock offset to `source`. */
  rateLimits(policy: { source: () => number; banAfter: number; banSeconds: number }): RateLimitBackend<'later'>
  readonly clockOffset: ClockOffset<'later'>
  readonly faults: {
    /** Returns the faults set through any process, undefined while none was set. */
    current(): ResolvedFaults | undefined
    set(faults: ResolvedFaults): Promise<void>
    /** Returns a mark that changes when any process resets, so each starts its fault draws over. */
    resets(): string
  }
  /** Keeps the last `capacity` answered requests of every process and session, masked, by session. */
  requestLog(capacity: number): SharedRequestLog
  /** Each key's scenario, followed by every process (D29). */
  readonly scenarios?: SharedScenarios
  /** Runtime key changes, followed by every process (D22). */
  readonly keys?: KeyStorage
  /** The keys bound to sessions, for every process (D46). */
  readonly boundKeys?: BoundKeys
  /** Returns the named sessions' registry across processes (D34), drops decided in the state; without it, 501. */
  sessions?(policy: SharedSessionsPolicy): SharedSessions
  /** Says why the shared state cannot serve now (Redis unreachable), for readiness. */
  notReady(): string | undefined
  /** Notes something while it serves (a Redis Cluster master without a replica), for the banner and `/readyz`. */
  detail?(): string | undefined
  close(): Promise<void>
}

/** The members a shared state gives for one session's world. */
export type SharedWorld = Pick<SharedState, 'pets' | 'rateLimits' | 'clockOffset' | 'faults' | 'scenarios'>

/** Where a session's world came from: the start-up world, a fork, or a capsule (D34). */
export type OriginKind = 'start-up' | 'fork' | 'capsule'

/** Why a named session was dropped unasked: idle past `idleMs`, or least recently used beyond `max`. */
export type DropReason = { kind: 'idle'; idleMs: number } | { kind: 'least-recently-used'; max: number }

/** What bounds a shared state's named sessions (D34). */
export interface SharedSessionsPolicy {
  /** Named sessions kept at most (the default excluded); beyond it the least recently used goes. */
  max: number
  /** A named session unused this long, by the default session's clock, is dropped. */
  idleMs: number
  /** The most pets stored (D23); undefined for no bound. */
  maxPets?: number
  /** The time source without offset, to which the state adds the default session's to date uses. */
  source: () => number
  /** Hears of each drop this process made. */
  onDrop?: ((name: SessionName, reason: DropReason) => void) | undefined
  /** Hears of a session another process reset, replaced or dropped, whose kept exchanges are now stale. */
  onStale?: ((name: SessionName) => void) | undefined
}

/** The named sessions of a shared state: the registry every process sharing it follows. */
export interface SharedSessions {
  /** Returns session `name`'s world, made in the state on first read or write. */
  world(name: SessionName): SharedWorld
  /** Counts a use of session `name`, making it when absent. */
  use(name: SessionName): Promise<SharedSessionInfo>
  /** Finds what the state keeps of session `name`, counting no use. */
  find(name: SessionName): Promise<SharedSessionInfo | undefined>
  /** Lists the named sessions, most recently used first, after dropping the idle ones. */
  list(): Promise<SharedSessionInfo[]>
  /** Makes session `name` anew from `origin`, replacing the one of that name. */
  put(name: SessionName, origin: SharedOrigin): Promise<SharedSessionInfo>
  /** Deletes named session `name`, its pets, quotas and log entries; false when there is none. */
  delete(name: SessionName): Promise<boolean>
}

/** A session as a shared state keeps it: made, last used (epoch ms), and its origin. */
export interface SharedSessionInfo {
  name: SessionName
  created: number
  lastUsed: number
  origin: SharedOriginInfo
}

/** A world's settings (core/sessions/world-table.ts), kept as one value apart from pets, quotas and log entries. */
export interface WorldSettings {
  /** The clock's instant, from which it runs on; undefined: the time source's own. */
  clock: number | undefined
  faults: ResolvedFaults
  scenarios: Readonly<Record<string, string>>
  /** The seed of the scenarios' draws. */
  seed: number
}

/** Holds a session's origin apart from its pets and quotas. */
export interface SharedOriginInfo {
  kind: OriginKind
  from?: SessionName | undefined
  settings?: Partial<WorldSettings> | undefined
}

/** Says where `SharedSessions.put` makes a session from, and where its resets return to. */
export type SharedOrigin = { settings: WorldSettings } & (
  | { kind: 'start-up' }
  | { kind: 'fork'; from: SessionName }
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
  /** Returns the scenarios last set through any process, a new object on each change. */
  current(): Readonly<Record<string, string>> | undefined
  /** Replaces every key's scenario, for every process. */
  set(scenarios: Readonly<Record<string, string>>): Promise<void>
  /** Returns the seed of the session's draws, or undefined while the state keeps none. */
  seed(): number | undefined
}

/** The request log of every process sharing the state. */
export interface SharedRequestLog {
  /** Records an entry this process answered (already masked); never waits, never fails. */
  record(entry: RequestLogEntry): void
  /** Returns the last `limit` entries (default all) of one session, oldest first. */
  last(limit: number | undefined, of: InSession): Promise<RequestLogEntry[]>
  /** Counts the entries of one session the log keeps. */
  count(of: InSession): Promise<number>
  /** Calls `listener` with each entry other processes record; returns the stop. */
  watchOthers(listener: (entry: RequestLogEntry) => void): () => void
}
