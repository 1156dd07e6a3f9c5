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
import type { DropReason } from '../sessions/create-sessions.js'
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
  /**
   * Where the API lives, e.g. `http://localhost:4010/v1`. Default: any origin's `/v1` (D1).
   * With a `baseUrl`, requests to other origins are left to other handlers.
   */
  baseUrl?: string
  /** Seed of the generated pets: the same seed gives the same pets. Default `1`. */
  seed?: number
  /**
   * How many pets to seed, 0 to 100000; or the pets themselves, which replace the generated ones
   * (ids ascend in the order given where absent; a bad pet throws `ConfigError` naming its index
   * and field). Default `50`.
   */
  pets?: number | readonly GivenPet[]
  /**
   * The most pets the sandbox stores, seeded ones included: a create beyond it is answered 507
   * `storage_full` and stores nothing. At least `pets`. Default `1000000`.
   */
  maxPets?: number
  /** API keys and their plans. Default: the demo keys, one per plan (see `DEMO_KEYS`). */
  keys?: readonly KeyConfig[]
  /** Time source in epoch ms; the sandbox clock starts from it. Default `Date.now`. */
  now?: () => number
  /**
   * The instant the sandbox clock shows at creation, and in every fresh session, and after
   * `reset({ clock: true })`; it runs on from there (the CLI's `--now`). Default: the time source's.
   */
  startAt?: Date | number | string
  /**
   * A capsule to start from (D34; `GET /__sandbox/sessions/{name}/capsule`, `session.capsule()`):
   * the default session and every fresh session start from its pets, clock, faults, each key's
   * scenario and quota. Its keys and custom scenarios join the demo keys when `keys` is not given,
   * and serve when `scenarios.custom` is not; `faults`, `scenarios.keys` and `startAt`, when given,
   * win over the capsule's. Not with `pets` (the capsule says which pets there are) nor `shared`.
   * A recording (HAR 1.2: Playwright's `recordHar`, a browser's, `GET /__sandbox/requests.har`) is
   * learned into a capsule first (D41): every pet its response bodies show, the clock at its end.
   *
   * @example
   * const sandbox = createSandbox({ from: JSON.parse(readFileSync('bug-123.capsule.json', 'utf8')) })
   */
  from?: Capsule | RecordedHar
  /**
   * Named sessions (`X-Sandbox-Session`, `sandbox.session(name)`, D34): at most `max` (default
   * 1000, the default session not counted; beyond it the least recently used is dropped), each
   * dropped once unused for `idleMs` by the default session's clock (default one hour). `onDrop`
   * hears of each drop.
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
  /**
   * Token of the admin API under `/__sandbox/` (`Authorization: Bearer <token>`). Without it the
   * admin API does not exist: its paths are 404 like any path outside the API.
   */
  adminToken?: string
  /**
   * Each key's situation (D29): `keys` puts keys in scenarios from the start (what `reset()`
   * restores), `custom` defines scenarios beside the built-in ones. Default: none.
   *
   * @example
   * createSandbox({ scenarios: { keys: { 'sandbox-free-key': 'down' }, custom: { 'slow-creates': { operations: { createPet: { latency: 2000 } } } } } })
   */
  scenarios?: {
    keys?: Readonly<Record<string, ScenarioName>>
    custom?: Readonly<Record<string, ScenarioDefinition>>
  }
  /**
   * Honour `Prefer: code=<status>` (Prism's convention, D30): a request is answered with that
   * status when its operation lists it or its `default` covers it (an error), else 400. Default
   * `false`: the header is ignored, as a real backend would.
   */
  prefer?: boolean
  /** Injected latency and failures, seeded so runs repeat. Default: none. */
  faults?: FaultOptions
  /**
   * Waits out injected latency and a scenario's (`slow`). Default: a real timer (not the sandbox
   * clock). Tests may pass one that records the delay instead of waiting.
   */
  sleep?: (ms: number) => Promise<void>
  /** How many answered requests `requests()` and the admin API keep, 0 to 100000. Default `100`. */
  requestLogSize?: number
  /** Durable storage of created pets (the CLI's `--state <file>`). Default: memory only. */
  storage?: PetStorage
  /** Durable storage of keys added, changed or revoked at runtime (the CLI's `--state`). Default: memory only. */
  keyStorage?: KeyStorage
  /**
   * The request log the sandbox writes its answers into, for a server that writes into it too and
   * prints it (the CLI): `createRequestLog`. Default: the sandbox's own, of `requestLogSize`.
   */
  requestLog?: RequestLog
  /**
   * The check of `adminToken`, for a server that serves admin paths of its own beside the admin API
   * (the CLI's event stream, the proxy's paths), so that one limit on wrong tokens holds for all:
   * `createAdminGate`. Default: the sandbox's own.
   */
  adminGate?: AdminGate
  /**
   * The counts of a proxy that stands in front of this sandbox's handlers (the CLI's
   * `petstore-sandbox proxy`), which the admin API shows at `GET /__sandbox/proxy`. Default: none,
   * and that path is 404.
   */
  proxyState?: () => ProxyState
  /** The drift report of `proxy --shadow`, which `GET /__sandbox/shadow` shows (D42); internal, as `proxyState` is. */
  shadowReport?: () => ShadowReport
  /** Called with anything thrown inside a handler (answered as 500). Default `console.error`. */
  onUnexpectedError?: (error: unknown) => void
}

/** Options of a sandbox whose state other processes share: {@link SandboxOptions} plus `shared`. */
export interface SharedSandboxOptions extends SandboxOptions {
  /**
   * State shared with other sandbox processes (Node only): `await connectRedisState({ url })` from
   * `petstore-sandbox/redis`. Every process given the same state answers as one sandbox.
   * Default: the sandbox's own memory.
   */
  shared: SharedState
}
