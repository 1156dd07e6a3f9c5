import type { HttpHandler } from 'msw'
import type { StateSummary } from '../admin/admin-controls.js'
import type { ApiKey } from '../auth/key-config.js'
import type { FaultOptions, ResolvedFaults } from '../faults/fault-config.js'
import type { QuotaChange, QuotaState } from '../rate-limit/create-rate-limiter.js'
import type { RequestLogEntry } from '../request-log/create-request-log.js'
import type { NewPet, Pet } from '../store/pet.js'

/**
 * A sandbox whose state lives elsewhere, shared with other processes (`createSandbox({ shared })`):
 * the same members as `Sandbox`, but every read of the state and every move of it is a promise,
 * resolved once every process sharing the state will see it.
 *
 * @example
 * import { createSandbox } from 'petstore-sandbox'
 * import { connectRedisState } from 'petstore-sandbox/redis'
 *
 * const sandbox = createSandbox({ shared: await connectRedisState({ url: 'redis://127.0.0.1:6379' }) })
 * await sandbox.ready()
 * await sandbox.quota.set('sandbox-free-key', { remaining: 0 })   // every process refuses it now
 */
export interface SharedSandbox {
  readonly handlers: HttpHandler[]
  readonly fetch: typeof fetch
  readonly originHandlers: HttpHandler[]
  readonly clock: {
    now(): number
    set(instant: Date | number | string): Promise<void>
    advance(ms: number): Promise<void>
    reset(): Promise<void>
  }
  readonly keys: readonly ApiKey[]
  /**
   * Calls `listener` with each request answered by any process sharing the state, masked as in
   * `requests()`; returns the function that stops it. Another process's requests arrive a moment
   * after they were answered (they travel in batches).
   */
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
  reset(options?: { clock?: boolean }): Promise<void>
  /** Resolves once the shared pets are seeded; rejects (ConfigError) when they were seeded otherwise. */
  ready(): Promise<void>
  readonly pets: {
    all(): Promise<Pet[]>
    get(id: number): Promise<Pet | undefined>
    create(pet: NewPet): Promise<Pet>
    put(pet: Pet): Promise<Pet>
  }
  readonly quota: {
    get(key: string): Promise<QuotaState>
    set(key: string, change: QuotaChange): Promise<QuotaState>
  }
  readonly faults: {
    get(): ResolvedFaults
    set(options: FaultOptions): Promise<ResolvedFaults>
  }
  requests(limit?: number): Promise<RequestLogEntry[]>
  state(): Promise<StateSummary>
  /** Lets go of the shared state (closes the connection). */
  close(): Promise<void>
}
