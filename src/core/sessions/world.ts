import type { MovableClock } from '../clock/create-clock.js'
import type { FaultInjector } from '../faults/create-fault-injector.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { Operations } from '../operations/operation-table.js'
import type { SharedScenarios } from '../state/shared-state.js'
import type { Scenarios } from '../scenarios/create-scenarios.js'
import type { ResolvedScenario } from '../scenarios/scenario-config.js'
import type { Answer, Timing } from '../state/maybe-promise.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { RateLimitBackend } from '../state/rate-limit-backend.js'
import type { PetStatus } from '../store/pet.js'
import type { Origin } from './origin.js'
import type { SessionName } from './session-name.js'

/** The parts of one world as a state keeps them (D34). */
export interface WorldBacking<Of extends Timing> {
  clock: MovableClock<Of>
  store: PetRepository<Of>
  /** The world's key buckets; the default session's holds the shared per-address ones too (D16). */
  rateLimiter: RateLimitBackend<Of>
  /** The fault injector the pipeline draws from (a shared one follows what any process set). */
  faults: FaultInjector
  /** Makes a configuration just given to `faults` what every process follows; answers it. */
  shareFaults(next: ResolvedFaults): Answer<ResolvedFaults, Of>
  /** Each key's scenario as every process sees it; undefined for a sandbox of its own (D29). */
  scenarios: SharedScenarios | undefined
  /** Returns the pets and buckets a fork starts from; a shared state copies them itself. */
  fork: (() => Pick<Origin, 'pets' | 'quotas'>) | undefined
  /** Lets go of what the world holds (a dropped or replaced session): its pets leave the maxPets count. */
  release(): void
}

/** A world (D34): everything a test can change in one session; the rest is the process's. */
export interface World<Of extends Timing = Timing> {
  /** The session's name: `default` for the default session. */
  readonly name: SessionName
  /** The name answers echo and the request log tags; undefined for the default session. */
  readonly session: string | undefined
  readonly clock: MovableClock<Of>
  readonly store: PetRepository<Of>
  /** The world's key buckets; the default session's also holds the per-address ones. */
  readonly rateLimiter: RateLimitBackend<Of>
  readonly faults: FaultInjector
  shareFaults(next: ResolvedFaults): Answer<ResolvedFaults, Of>
  readonly scenarios: Scenarios
  readonly operations: Operations
  ready(): Promise<void>
  /** Where the world came from and what `reset()` restores; the default session's changes when it is replaced. */
  origin: Origin
  /** When the session was made and last used, by the default session's clock (epoch ms). */
  created: number
  lastUsed: number
  /** Takes up what a shared state keeps of this session before a reset; undefined in memory. */
  refresh?: () => Promise<void>
  /** Returns the pets and buckets a fork starts from; undefined where the state cannot fork. */
  readonly fork: WorldBacking<Of>['fork']
  /** Lets go of what the world holds, once it left the sessions. */
  release(): void
}

export interface WorldOptions {
  /** Every scenario the sandbox knows: built-in and custom, one list for every session. */
  knownScenarios: ReadonlyMap<string, ResolvedScenario>
  /** Whether `key` is a key of the sandbox right now. */
  isKey: (key: string) => boolean
  sleep: (ms: number) => Promise<void>
  /** The status of a pet created without one (D4). */
  defaultStatus: PetStatus | undefined
  /** The default session's clock, which dates `created` and `lastUsed`. */
  now: () => number
}
