import type { NewPet, Pet } from '../store/pet.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { PetRepository } from './pet-repository.js'
import type { Bucket, RateLimitBackend } from './rate-limit-backend.js'
import type { Answer, Timing } from './maybe-promise.js'

export type SessionName = string & { readonly sessionName: unique symbol }
import type { InSession, RequestLogEntry } from '../request-log/create-request-log.js'
import type { KeyStorage } from '../auth/key-storage.js'
import type { BoundKeys } from '../auth/create-bound-keys.js'

/** Holds the clock's offset (D20); `get` is the last seen. */
export interface ClockOffset<Of extends Timing = Timing> {
  get(): number
  set(offset: number): Answer<void, Of>
  add(ms: number): Answer<void, Of>
  refresh?(): Promise<void>
}

/** Lets sharing processes tell whether their seeded pets agree. */
export interface PetSeeding {
  seed: number
  /** Gives the highest seeded id. */
  pets: number
  /** Yields pets in id order; a missing id follows the previous. */
  draw: () => Iterable<NewPet & { id?: number }>
  /** Makes `draw` the pets' identity (D33). */
  given?: boolean
  world?: { nextId: number; clock: number | undefined; quotas: ReadonlyMap<string, Bucket> }
}

/** Shares state between processes that answer as one sandbox (D21). */
export interface SharedState {
  readonly where: string
  pets(seeding: PetSeeding, limits: { maxPets: number }): PetRepository<'later'>
  /** Adds the shared clock offset to `source`. */
  rateLimits(policy: { source: () => number; banAfter: number; banSeconds: number }): RateLimitBackend<'later'>
  readonly clockOffset: ClockOffset<'later'>
  readonly faults: {
    current(): ResolvedFaults | undefined
    set(faults: ResolvedFaults): Promise<void>
    /** Changes on any process's reset. */
    resets(): string
  }
  requestLog(capacity: number): SharedRequestLog
  readonly scenarios?: SharedScenarios
  readonly keys?: KeyStorage
  readonly boundKeys?: BoundKeys
  /** Leaves named sessions 501 when absent (D34). */
  sessions?(policy: SharedSessionsPolicy): SharedSessions
  notReady(): string | undefined
  /** Names a flaw for the banner and `/readyz`. */
  detail?(): string | undefined
  /** Bounds how long a master's failover stalls a request, on a Redis Cluster (D44). */
  readonly failoverBoundMs?: number
  close(): Promise<void>
}

export type SharedWorld = Pick<SharedState, 'pets' | 'rateLimits' | 'clockOffset' | 'faults' | 'scenarios'>

export type OriginKind = 'start-up' | 'fork' | 'capsule'

export type DropReason = { kind: 'idle'; idleMs: number } | { kind: 'least-recently-used'; max: number }

export interface SharedSessionsPolicy {
  max: number
  idleMs: number
  maxPets?: number
  /** Gives the time without offset; the state adds the default session's. */
  source: () => number
  onDrop?: ((name: SessionName, reason: DropReason) => void) | undefined
  /** Hears of a session another process reset, replaced or dropped. */
  onStale?: ((name: SessionName) => void) | undefined
}

export interface SharedSessions {
  /** Makes the world on first read or write. */
  world(name: SessionName): SharedWorld
  /** Makes the session when absent. */
  use(name: SessionName): Promise<SharedSessionInfo>
  /** Counts no use. */
  find(name: SessionName): Promise<SharedSessionInfo | undefined>
  /** Lists most recent first, idle ones dropped. */
  list(): Promise<SharedSessionInfo[]>
  put(name: SessionName, origin: SharedOrigin): Promise<SharedSessionInfo>
  delete(name: SessionName): Promise<boolean>
}

export interface SharedSessionInfo {
  name: SessionName
  created: number
  lastUsed: number
  origin: SharedOriginInfo
}

/** Holds a world's settings (world-table.ts). */
export interface WorldSettings {
  /** Is undefined for the source's time. */
  clock: number | undefined
  faults: ResolvedFaults
  scenarios: Readonly<Record<string, string>>
  /** Seeds the scenarios' draws. */
  seed: number
}

export interface SharedOriginInfo {
  kind: OriginKind
  from?: SessionName | undefined
  settings?: Partial<WorldSettings> | undefined
}

/** Says what `put` makes a session from, and resets return to. */
export type SharedOrigin = { settings: WorldSettings } & (
  | { kind: 'start-up' }
  | { kind: 'fork'; from: SessionName }
  | {
      kind: 'capsule'
      pets: readonly Pet[]
      nextId: number
      /** Is keyed `key:<key>`. */
      quotas: ReadonlyMap<string, Bucket>
    }
)

export interface SharedScenarios {
  /** Gives a new object on each change. */
  current(): Readonly<Record<string, string>> | undefined
  set(scenarios: Readonly<Record<string, string>>): Promise<void>
  seed(): number | undefined
}

export interface SharedRequestLog {
  /** Records a masked entry; never waits, never fails. */
  record(entry: RequestLogEntry): void
  /** Lists oldest first; all without `limit`. */
  last(limit: number | undefined, of: InSession): Promise<RequestLogEntry[]>
  count(of: InSession): Promise<number>
  watchOthers(listener: (entry: RequestLogEntry) => void): () => void
}
