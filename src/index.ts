// Imports no node:* module: the entry serves the browser too.
// First, so an old Node is named before msw fails on it.
import './core/assert-node-floor.js'
export { createSandbox } from './core/sandbox/create-sandbox.js'
export type {
  Sandbox,
  SandboxPets,
  SandboxQuota,
  SandboxResetOptions,
  SandboxSessions,
  Session,
  SessionControls,
  SessionInit,
  SessionKeyInit,
  SessionKeys,
  SharedSandbox,
} from './core/sandbox/sandbox.js'
export {
  SESSION_HEADER,
  DEFAULT_SESSION,
  BAGGAGE_HEADER,
  BAGGAGE_MEMBER,
  baggageSession,
} from './core/sessions/session-name.js'
export type { DeleteSessionsOptions, DropReason } from './core/sessions/session-lifecycle.js'
export { CAPSULE_VERSION, type Capsule, type CapsuleQuota } from './core/sessions/capsule.js'
export type { SandboxOptions, SharedSandboxOptions } from './core/sandbox/sandbox-options.js'
export type { SharedState, SharedWorld, PetSeeding } from './core/state/shared-state.js'
export type { SandboxClock } from './core/clock/create-clock.js'
export type { QuotaStanding, QuotaWindow, QuotaChange } from './core/state/rate-limit-backend.js'
/** @deprecated Renamed `QuotaStanding` in 0.2. */
export type { QuotaStanding as QuotaState } from './core/state/rate-limit-backend.js'
export type { StateSummary, KeySummary, SessionSummary } from './core/admin/admin-controls.js'
export {
  FAULT_KINDS,
  type FaultKind,
  type FaultOptions,
  type Latency,
  type LatencyPercentiles,
  type LatencyRange,
  type OperationFaults,
  type ResolvedFaults,
} from './core/faults/fault-config.js'
export { FAULT_HEADER } from './core/faults/create-fault-injector.js'
export { SCENARIO_HEADER, type SandboxScenarios } from './core/scenarios/create-scenarios.js'
export {
  BUILT_IN_SCENARIOS,
  type BuiltInScenario,
  type ScenarioName,
  type ScenarioDefinition,
  type ScenarioBehaviour,
} from './core/scenarios/scenario-config.js'
export type { LogSelection, RequestLogEntry } from './core/request-log/create-request-log.js'
export type { Har, HarEntry, HarSelection } from './core/request-log/to-har.js'
export type { PetStorage } from './core/store/create-pet-store.js'
export type { PetChange, PetChangeKind } from './core/store/pet-change.js'
export type { GivenPet } from './core/store/resolve-pets.js'
export type { Readiness, ReadinessCheck } from './core/probes/create-readiness.js'
export type { KeyConfig, ApiKey } from './core/auth/key-config.js'
export type { BoundKey } from './core/auth/create-bound-keys.js'
export type { Secrets } from './core/auth/create-masker.js'
export type { SandboxApiKeys } from './core/auth/create-key-controls.js'
export type { KeyStorage, KeyChanges } from './core/auth/key-storage.js'
export { DEMO_KEYS } from './core/auth/demo-keys.js'
export { PLANS, type Plan, type Limits } from './core/auth/plans.js'
export { PET_STATUSES, type Pet, type NewPet, type PetStatus } from './core/store/pet.js'
export type { ApiErrorBody as ApiError } from './core/contract/api-error-body.js'
export type { paths, components, operations } from './core/contract/openapi-types.js'
export { ErrorCode } from './core/errors/error-code.js'
export { ConfigError, UnknownKeyError } from './core/errors/config-error.js'
