// The public in-process API. Exports are explicit so the package's surface is read here at once.
// Nothing here imports node:* modules: the same entry point serves Node and the browser.
// First, so that an old Node is named before msw fails on it.
import './assert-node-floor.js'
export { createSandbox, type Sandbox, type SandboxPets, type SandboxQuota, type SandboxResetOptions } from './create-sandbox.js'
export type { SandboxOptions } from './sandbox-options.js'
export type { SandboxClock } from './clock/create-clock.js'
export type { QuotaState, QuotaWindow, QuotaChange } from './policies/create-rate-limiter.js'
export type { StateSummary, KeySummary } from './admin/admin-controls.js'
export { FAULT_KINDS, type FaultKind, type FaultOptions, type LatencyRange, type OperationFaults, type ResolvedFaults } from './faults/fault-config.js'
export { FAULT_HEADER } from './faults/create-fault-injector.js'
export type { RequestLogEntry } from './request-log/create-request-log.js'
export type { PetStorage } from './store/create-pet-store.js'
export type { KeyConfig, ApiKey } from './keys/key-config.js'
export { DEMO_KEYS } from './keys/demo-keys.js'
export { PLANS, type Plan, type Limits } from './keys/plans.js'
// Types generated from fixtures/openapi.yaml (src/contract/openapi-types.ts).
export { PET_STATUSES, type Pet, type NewPet, type PetStatus } from './store/pet.js'
export type { ApiErrorBody as ApiError } from './errors/api-error-body.js'
export type { paths, components, operations } from './contract/openapi-types.js'
export { ErrorCode } from './errors/error-code.js'
export { ConfigError } from './errors/config-error.js'
