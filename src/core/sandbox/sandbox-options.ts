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

/**
 * Options of {@link createSandbox}. Every one is optional.
 *
 * @example
 * const sandbox = createSandbox({
 *   baseUrl: 'https://staging.animal-store.example/v1',
 *   seed: 7,
 *   pets: 20,
 *   keys: [{ key: 'team-a-key', plan: 'pro' }],
 *   now: () => Date.parse('2030-01-01T10:00:00Z'),
 *   banAfter: 3,
 *   banSeconds: 60,
 *   defaultStatus: null,
 * })
 */
export interface SandboxOptions {
  /** Where the API lives, e.g. `http://localhost:4010/v1`. Default: any origin's `/v1` (D1). */
  baseUrl?: string
  /** Seed of the generated pets: the same seed gives the same pets. Default `1`. */
  seed?: number
  /** How many pets to seed, 0 to 100000, or the pets themselves. Default `50`. */
  pets?: number | readonly GivenPet[]
  /** The most pets stored, seeded ones included; beyond it a create is a 507 (D23). Default `1000000`. */
  maxPets?: number
  /** API keys and their plans. Default: the demo keys, one per plan (see `DEMO_KEYS`). */
  keys?: readonly KeyConfig[]
  /** Time source in epoch ms; the sandbox clock starts from it. Default `Date.now`. */
  now?: () => number
  /** The instant the clock starts at, in every fresh session and after `reset({ clock: true })`. */
  startAt?: Date | number | string
  /**
   * A capsule (D34) or a recording (D41) every fresh session starts from; options given win over it.
   *
   * @example
   * const sandbox = createSandbox({ from: JSON.parse(readFileSync('bug-123.capsule.json', 'utf8')) })
   */
  from?: Capsule | RecordedHar
  /**
   * Named sessions (D34): at most `max` (1000), each dropped once idle for `idleMs` (an hour).
   *
   * @example
   * createSandbox({ sessions: { max: 8, idleMs: 60_000, onDrop: (name, reason) => console.log(name, reason.kind) } })
   */
  sessions?: {
    max?: number
    idleMs?: number
    onDrop?: (name: string, reason: DropReason) => void
  }
  /** Refused requests in one window after which a key is banned (D15). Default `10`. */
  banAfter?: number
  /** Length of a temporary ban in seconds (D15). Default `900`. */
  banSeconds?: number
  /** Status of pets created without one (D4): a PetStatus, or `null` for none. Default `'available'`. */
  defaultStatus?: PetStatus | null
  /** Origins allowed by CORS (D19): `'*'` (default) or a list such as `['http://localhost:5173']`. */
  corsOrigins?: '*' | readonly string[]
  /** Other dates for the deprecation of `getPet`, to rehearse them (D18). */
  deprecation?: DeprecationOverrides
  /** The admin API's token; without it the admin paths are 404. */
  adminToken?: string
  /**
   * Each key's scenario from the start (`keys`), and scenarios beside the built-in ones (`custom`), D29.
   *
   * @example
   * createSandbox({ scenarios: { keys: { 'sandbox-free-key': 'down' } } })
   */
  scenarios?: {
    keys?: Readonly<Record<string, ScenarioName>>
    custom?: Readonly<Record<string, ScenarioDefinition>>
  }
  /** Honours `Prefer: code=<status>` (D30). Default `false`, as a real backend ignores it. */
  prefer?: boolean
  /** Injected latency and failures, seeded so runs repeat. Default: none. */
  faults?: FaultOptions
  /** Waits out injected latency; a real timer by default, never the sandbox clock. */
  sleep?: (ms: number) => Promise<void>
  /** How many answered requests `requests()` and the admin API keep, 0 to 100000. Default `100`. */
  requestLogSize?: number
  /** Durable storage of created pets (the CLI's `--state <file>`). Default: memory only. */
  storage?: PetStorage
  /** Stores runtime key changes durably (the CLI's `--state`). Default: memory only. */
  keyStorage?: KeyStorage
  /** The request log to write answers into, shared with a server (the CLI). Default: the sandbox's own. */
  requestLog?: RequestLog
  /** Checks `adminToken`, shared with a server's own admin paths so one limit holds for all (D31). */
  adminGate?: AdminGate
  /** Returns the counts of a proxy in front, for `GET /__sandbox/proxy`; without it that path is 404. */
  proxyState?: () => ProxyState
  /** Returns the drift report of `proxy --shadow` for `GET /__sandbox/shadow` (D42). */
  shadowReport?: () => ShadowReport
  /** Called with anything thrown inside a handler (answered as 500). Default `console.error`. */
  onUnexpectedError?: (error: unknown) => void
}

/** Options of a sandbox whose state other processes share: {@link SandboxOptions} plus `shared`. */
export interface SharedSandboxOptions extends SandboxOptions {
  /** State shared with other processes (`connectRedisState` of `petstore-sandbox/redis`), answering as one. */
  shared: SharedState
}
