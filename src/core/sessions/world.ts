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

/** Holds one world's parts as a state keeps them (D34). */
export interface WorldBacking<Of extends Timing> {
  clock: MovableClock<Of>
  store: PetRepository<Of>
  rateLimiter: RateLimitBackend<Of>
  faults: FaultInjector
  /** Shares a configuration just given to `faults`. */
  shareFaults(next: ResolvedFaults): Answer<ResolvedFaults, Of>
  scenarios: SharedScenarios | undefined
  /** Returns what a fork starts from; undefined where the state copies. */
  fork: (() => Pick<Origin, 'pets' | 'quotas'>) | undefined
  /** Lets go of the world's parts and their maxPets count. */
  release(): void
}

/** Holds everything a test can change in one session (D34). */
export interface World<Of extends Timing = Timing> {
  readonly name: SessionName
  /** Tags answers and log entries; undefined for the default session. */
  readonly session: string | undefined
  readonly clock: MovableClock<Of>
  readonly store: PetRepository<Of>
  readonly rateLimiter: RateLimitBackend<Of>
  readonly faults: FaultInjector
  shareFaults(next: ResolvedFaults): Answer<ResolvedFaults, Of>
  readonly scenarios: Scenarios
  readonly operations: Operations
  ready(): Promise<void>
  origin: Origin
  /** Dates the session on the default session's clock (D34). */
  created: number
  lastUsed: number
  /** Takes up the shared state's copy before a reset. */
  refresh?: () => Promise<void>
  readonly fork: WorldBacking<Of>['fork']
  release(): void
}

export interface WorldOptions {
  knownScenarios: ReadonlyMap<string, ResolvedScenario>
  isKey: (key: string) => boolean
  sleep: (ms: number) => Promise<void>
  /** Sets the status of a pet created without one (D4). */
  defaultStatus: PetStatus | undefined
  now: () => number
}
