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

/**
 * What the request pipeline reads of a process, composed once per sandbox by `createSandbox`:
 * everything but the world a request is in (D34).
 */
export interface ApiHandlerParts {
  scope: ApiScope
  router: Router
  keyRing: KeyRing
  /** The keys bound to sessions (D46): a request carrying one is in its session. */
  boundKeys: BoundKeys
  /** The per-address buckets of requests without a valid key (D16, D32): one for every session. */
  addressLimiter: RateLimitBackend
  validator: RequestValidator
  deprecations: Deprecations
  cors: Cors
  /** With `prefer`, `Prefer: code=` forces an answer's status (D30), among the statuses each operation may answer. */
  forcible: ReadonlyMap<string, ForcibleStatuses>
  prefer: boolean
  /** The one tail its answers end through: Error bodies, the request log, masking (answer-tail.ts). */
  tail: AnswerTail
  /** False while this process seeds or resets a store: a listing is then not read ahead. */
  storeSettled: () => boolean
  /** The worlds requests are answered in, as the sessions' lifecycle gives them (session-lifecycle.ts). */
  worlds: {
    default: WorldParts
    /** The world of the session a request names, made on first use; for a name the sandbox cannot serve, the default world with the refusal to answer. */
    named(requested: RequestedSession): WorldParts
    /** The world of the session `bound` names; with the refusal to answer when `requested` names another. */
    bound(bound: BoundKey, requested: RequestedSession | undefined): WorldParts
  }
}

/** What the request pipeline reads of the world a request is in (core/sessions, D34). */
export interface WorldParts {
  /** The session's name as answers echo it and the request log tags it; undefined for the default session. */
  session: string | undefined
  /** The operations, over this world's pets. */
  operations: Readonly<Record<string, Operation>>
  /** The world's key buckets. */
  rateLimiter: RateLimitBackend
  /** What the pipeline asks of the world's pets itself: a listing's page read with the decision (plan-listing.ts). */
  store: Pick<PetRepository, 'readAhead'>
  clock: SandboxClock
  faults: FaultInjector
  /** Each key's scenario (D29). */
  scenarios: Scenarios
  /** Waits for the world's pets (seeding, or a reset). */
  ready: () => Promise<void>
  /** Why the request's session cannot be served (a bad name, 400; sessions on a state that keeps none, 501): the pipeline answers it after admission. */
  refusal?: HttpError
  /**
   * For a session the request names that does not exist yet: told whether admission let the
   * request through, which makes the session, or refused it, which lets the world go (D34).
   */
  settle?: (admitted: boolean) => void
}
