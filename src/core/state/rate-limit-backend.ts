import type { Limits } from '../auth/plans.js'
import type { QuotaChange, QuotaState, RateDecision } from '../rate-limit/create-rate-limiter.js'
import type { ListQuery } from '../store/create-pet-store.js'
import type { JsonText } from '../http/json-text.js'
import type { MaybePromise } from './maybe-promise.js'

/**
 * Where the rate-limit windows, refusal counts and bans live. The in-memory limiter answers at
 * once; a shared one answers each decision in one round trip, so it is exact across processes.
 */
export interface RateLimitBackend {
  take(id: string, limits: Limits): MaybePromise<RateDecision>
  peek(id: string, limits: Limits): MaybePromise<RateDecision>
  inspect(id: string, limits: Limits): MaybePromise<QuotaState>
  arrange(id: string, limits: Limits, change: QuotaChange): MaybePromise<QuotaState>
  clear(): MaybePromise<void>
  /**
   * A shared backend's shortcut: takes like `take` and, only when the request is allowed, reads the
   * page of pets in the same atomic step, one round trip instead of two (BENCHMARKS.md, the Redis
   * section). `page` is the pets' JSON as stored, undefined when the request was refused.
   */
  takeThenList?(id: string, limits: Limits, query: ListQuery): Promise<{ decision: RateDecision; page: JsonText | undefined }>
}
