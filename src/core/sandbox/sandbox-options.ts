import type { DeprecationOverrides } from '../http/create-deprecations.js'
import type { KeyConfig } from '../auth/key-config.js'
import type { KeyStorage } from '../auth/key-storage.js'
import type { PetStatus } from '../store/pet.js'
import type { GivenPet } from '../store/resolve-pets.js'
import type { ScenarioDefinition, ScenarioName } from '../scenarios/scenario-config.js'
import type { FaultOptions } from '../faults/fault-config.js'
import type { PetStorage } from '../store/create-pet-store.js'
import type { SharedState } from '../state/shared-state.js'
import type { AdminGate } from '../admin/create-admin-gate.js'
import type { RequestLog } from '../request-log/create-request-log.js'
import type { DropReason } from '../sessions/session-lifecycle.js'
import type { Capsule } from '../sessions/capsule.js'
import type { RecordedHar } from '../learning/learn-capsule.js'
import type { ProxyState, ShadowReport } from '../admin/admin-controls.js'

/** Configures {@link createSandbox}. */
export interface SandboxOptions {
  /** Places the API at this URL, e.g. `http://localhost:4010/v1`. Default: any origin's `/v1` (D1). */
  baseUrl?: string
  /** Seeds the generated pets. Default `1`. */
  seed?: number
  /** Gives the pets to seed, or how many (0 to 100000). Default `50`. */
  pets?: number | readonly GivenPet[]
  /** Bounds the pets stored (D23). Default `1000000`. */
  maxPets?: number
  /** Lists the API keys. Default: `DEMO_KEYS`. */
  keys?: readonly KeyConfig[]
  /** Gives the time in epoch ms. Default `Date.now`. */
  now?: () => number
  /** Sets the clock's start, in every fresh session and after `reset({ clock: true })`. */
  startAt?: Date | number | string
  /** Starts every fresh session from a capsule (D34) or recording (D41); options win over it. */
  from?: Capsule | RecordedHar
  /** Bounds the named sessions (D34). Default: 1000, each idle for an hour at most. */
  sessions?: {
    max?: number
    idleMs?: number
    onDrop?: (name: string, reason: DropReason) => void
  }
  /** Bans a key after this many refused requests in a window (D15). Default `10`. */
  banAfter?: number
  /** Gives a ban's seconds (D15). Default `900`. */
  banSeconds?: number
  /** Gives a pet created without a status this one, or none for `null` (D4). Default `'available'`. */
  defaultStatus?: PetStatus | null
  /** Lists the origins CORS allows (D19). Default `'*'`. */
  corsOrigins?: '*' | readonly string[]
  /** Moves `getPet`'s deprecation dates (D18). */
  deprecation?: DeprecationOverrides
  /** Opens the admin API under `/__sandbox/` to this bearer token; without one its paths are 404. */
  adminToken?: string
  /** Sets scenarios per key, and adds `custom` ones (D29). */
  scenarios?: {
    keys?: Readonly<Record<string, ScenarioName>>
    custom?: Readonly<Record<string, ScenarioDefinition>>
  }
  /** Honours `Prefer: code=<status>` (D30). Default `false`. */
  prefer?: boolean
  /** Injects latency and failures, seeded so runs repeat. */
  faults?: FaultOptions
  /** Waits out injected latency, never on the sandbox clock. */
  sleep?: (ms: number) => Promise<void>
  /** Bounds the answered requests kept (0 to 100000). Default `100`. */
  requestLogSize?: number
  /** Stores created pets durably (`--state`). */
  storage?: PetStorage
  /** Stores runtime key changes durably (`--state`). */
  keyStorage?: KeyStorage
  /** Writes answers into a log shared with a server. */
  requestLog?: RequestLog
  /** Checks `adminToken` for this sandbox and a server alike (D31). */
  adminGate?: AdminGate
  /** Returns a proxy's counts for `GET /__sandbox/proxy`. */
  proxyState?: () => ProxyState
  /** Returns the drift report of `proxy --shadow` (D42). */
  shadowReport?: () => ShadowReport
  /** Hears what a handler throws (answered as 500). Default `console.error`. */
  onUnexpectedError?: (error: unknown) => void
}

/** Configures a sandbox whose state other processes share. */
export interface SharedSandboxOptions extends SandboxOptions {
  /** Shares the state (`connectRedisState`). */
  shared: SharedState
}
