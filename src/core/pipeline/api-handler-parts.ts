import type { KeyRing } from '../auth/create-key-ring.js'
import type { BoundKey, BoundKeys } from '../auth/create-bound-keys.js'
import type { SandboxClock } from '../clock/create-clock.js'
import type { ApiScope } from '../contract/create-api-scope.js'
import type { Router } from '../contract/create-router.js'
import type { HttpError } from '../errors/http-error.js'
import type { FaultInjector } from '../faults/create-fault-injector.js'
import type { Cors } from '../http/create-cors.js'
import type { Deprecations } from '../http/create-deprecations.js'
import type { Operation } from '../operations/operation.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { RateLimitBackend } from '../state/rate-limit-backend.js'
import type { RequestValidator } from '../validation/create-request-validator.js'
import type { Scenarios } from '../scenarios/create-scenarios.js'
import type { RequestedSession } from '../sessions/session-name.js'
import type { ForcibleStatuses } from '../scenarios/forced-status.js'
import type { AnswerTail } from './answer-tail.js'

/** Holds what the pipeline reads of a process (D34). */
export interface ApiHandlerParts {
  scope: ApiScope
  router: Router
  keyRing: KeyRing
  boundKeys: BoundKeys
  /** Counts keyless requests per address (D16). */
  addressLimiter: RateLimitBackend
  validator: RequestValidator
  deprecations: Deprecations
  cors: Cors
  /** D30. */
  forcible: ReadonlyMap<string, ForcibleStatuses>
  prefer: boolean
  tail: AnswerTail
  /** Is false while this process seeds or resets a store. */
  storeSettled: () => boolean
  worlds: {
    default: WorldParts
    /** Makes the world on first use, or gives the default with a refusal. */
    named(requested: RequestedSession): WorldParts
    /** Gives the bound key's world; a refusal when `requested` names another. */
    bound(bound: BoundKey, requested: RequestedSession | undefined): WorldParts
  }
}

/** Holds what the pipeline reads of the world a request is in (D34). */
export interface WorldParts {
  session: string | undefined
  operations: Readonly<Record<string, Operation>>
  rateLimiter: RateLimitBackend
  store: Pick<PetRepository, 'readAhead' | 'pending'>
  clock: SandboxClock
  faults: FaultInjector
  scenarios: Scenarios
  /** Is answered after admission. */
  refusal?: HttpError
  /** Makes a new session once admitted (D34). */
  settle?: (admitted: boolean) => void
}
