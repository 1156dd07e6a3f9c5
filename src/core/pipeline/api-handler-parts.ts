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

/** What the pipeline reads of a process, composed once per sandbox: all but the request's world (D34). */
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
  /** The statuses `Prefer: code=` may force per operation (D30). */
  forcible: ReadonlyMap<string, ForcibleStatuses>
  prefer: boolean
  /** Ends the answers: Error bodies, the request log, masking (answer-tail.ts). */
  tail: AnswerTail
  /** False while this process seeds or resets a store: a listing is then not read ahead. */
  storeSettled: () => boolean
  /** Gives the worlds requests are answered in (session-lifecycle.ts). */
  worlds: {
    default: WorldParts
    /** Returns the named session's world, made on first use, or the default one with a refusal. */
    named(requested: RequestedSession): WorldParts
    /** Returns the bound key's session's world, with a refusal when `requested` names another. */
    bound(bound: BoundKey, requested: RequestedSession | undefined): WorldParts
  }
}

/** What the request pipeline reads of the world a request is in (core/sessions, D34). */
export interface WorldParts {
  /** The session's name as answers echo it; undefined for the default session. */
  session: string | undefined
  /** The operations, over this world's pets. */
  operations: Readonly<Record<string, Operation>>
  /** The world's key buckets. */
  rateLimiter: RateLimitBackend
  /** Reads a listing's page with the decision (plan-listing.ts). */
  store: Pick<PetRepository, 'readAhead'>
  clock: SandboxClock
  faults: FaultInjector
  /** Each key's scenario (D29). */
  scenarios: Scenarios
  /** Waits for the world's pets (seeding, or a reset). */
  ready: () => Promise<void>
  /** Says why the session cannot be served (400, 501), answered after admission. */
  refusal?: HttpError
  /** Hears whether admission let a new session's request through, which makes the session (D34). */
  settle?: (admitted: boolean) => void
}
