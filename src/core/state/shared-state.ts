import type { NewPet } from '../store/pet.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { PetRepository } from './pet-repository.js'
import type { RateLimitBackend } from './rate-limit-backend.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { RequestLogEntry } from '../request-log/create-request-log.js'
import type { KeyStorage } from '../auth/key-storage.js'

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
   * The last `capacity` answered requests of every process, masked as the sandbox shows them;
   * the pets' reset empties it, for every process.
   */
  requestLog(capacity: number): SharedRequestLog
  /** Each key's scenario, followed by every process (docs/decisions.md#d29); without it a process keeps its own. */
  readonly scenarios?: SharedScenarios
  /** Keys added, re-planned or revoked at runtime, followed by every process (docs/decisions.md#d22). */
  readonly keys?: KeyStorage
  /**
   * The world of a named session (docs/decisions.md#d34), one across the processes sharing the
   * state: the members above that make the default session's world, for session `name` (its pets
   * copy-on-write over the shared start-up pets, its key buckets, clock offset, faults and
   * scenarios). Called when this process first meets the session. Without it, a request naming a
   * session is answered 501 `not_implemented`, and so are forks and capsule restores until the
   * registry (list, drop, idle expiry across processes) is shared too.
   */
  session?(name: string): SharedWorld
  /** Why the shared state cannot serve right now (Redis unreachable), or undefined: for readiness probes. */
  notReady(): string | undefined
  close(): Promise<void>
}

/** What a shared state gives for one named session's world: the default session's members, for that session. */
export type SharedWorld = Pick<SharedState, 'pets' | 'rateLimits' | 'clockOffset' | 'faults' | 'scenarios'>

/** Each key's scenario, as every process sharing the state sees it. */
export interface SharedScenarios {
  /** The scenarios last set through any process (a new object on each change), or undefined while none were. */
  current(): Readonly<Record<string, string>> | undefined
  /** Replaces every key's scenario, for every process. */
  set(scenarios: Readonly<Record<string, string>>): Promise<void>
}

/** The request log of every process sharing the state. */
export interface SharedRequestLog {
  /** Records an entry this process answered (already masked); never waits, never fails. */
  record(entry: RequestLogEntry): void
  last(limit: number | undefined): Promise<RequestLogEntry[]>
  /**
   * Calls `listener` with each entry the other processes record, as they send it; this process's
   * own entries are not repeated (the sandbox tells its watchers of them itself). Returns the stop.
   */
  watchOthers(listener: (entry: RequestLogEntry) => void): () => void
}
