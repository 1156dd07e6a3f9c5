import type { KeyRing } from '../auth/create-key-ring.js'
import type { Secrets } from '../auth/create-masker.js'
import type { SandboxClock } from '../clock/create-clock.js'
import type { ApiScope } from '../contract/create-api-scope.js'
import type { Router } from '../contract/create-router.js'
import type { FaultInjector } from '../faults/create-fault-injector.js'
import type { Cors } from '../http/create-cors.js'
import type { Deprecations } from '../http/create-deprecations.js'
import type { Operation } from '../operations/operation.js'
import type { RequestLog } from '../request-log/create-request-log.js'
import type { RateLimitBackend } from '../state/rate-limit-backend.js'
import type { RequestValidator } from '../validation/create-request-validator.js'
import type { Scenarios } from '../scenarios/create-scenarios.js'
import type { ForcibleStatuses } from '../scenarios/forced-status.js'

/** Everything the request pipeline reads, composed once per sandbox by `createSandbox`. */
export interface ApiHandlerParts {
  scope: ApiScope
  router: Router
  operations: Readonly<Record<string, Operation>>
  keyRing: KeyRing
  /** The keys in force and the admin token: an answer that echoes what the client sent masks them (D35). */
  secrets: () => Secrets
  rateLimiter: RateLimitBackend
  validator: RequestValidator
  deprecations: Deprecations
  cors: Cors
  clock: SandboxClock
  faults: FaultInjector
  /** Each key's scenario (D29). */
  scenarios: Scenarios
  /** With `prefer`, `Prefer: code=` forces an answer's status (D30), among the statuses each operation may answer. */
  forcible: ReadonlyMap<string, ForcibleStatuses>
  prefer: boolean
  requestLog: Pick<RequestLog, 'record'>
  /** Waits for the store to be seeded (or re-seeded after `reset()`). */
  ready: () => Promise<void>
  /** False while this process seeds or resets the store: a listing is then not read ahead. */
  storeSettled: () => boolean
  onUnexpectedError: (error: unknown) => void
}
