import type { Limits } from '../auth/plans.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { ReadAhead } from './read-ahead.js'

/** Where windows, refusals and bans live: in memory, deciding at once, or shared, in one round trip per request. */
export interface RateLimitBackend<Of extends Timing = Timing> {
  /** Counts a request; runs `ahead`'s read in the same step when allowed. */
  take(id: string, limits: Limits, ahead?: ReadAhead): Answer<RateDecision, Of>
  peek(id: string, limits: Limits): Answer<RateDecision, Of>
  inspect(id: string, limits: Limits): Answer<QuotaStanding, Of>
  arrange(id: string, limits: Limits, change: QuotaChange): Answer<QuotaStanding, Of>
  clear(): Answer<void, Of>
}

/** What the rate limiter decided for one request, and the `X-RateLimit-*` values to send. */
export interface RateDecision {
  outcome: 'allowed' | 'rate_limited' | 'temporarily_banned'
  limit: number
  remaining: number
  /** Unix time in seconds at which the described window (or the ban) ends. */
  reset: number
  /** Whole seconds until a retry can succeed, at least 1; only for refusals (D14). */
  retryAfter?: number
}

/**
 * A key's quota, as the next response's `X-RateLimit-*` would say before it is counted (D13).
 *
 * @example
 * const quota = sandbox.quota.get('sandbox-free-key')
 * quota.remaining          // 60 in a fresh minute
 * quota.reset              // Unix seconds at which the minute ends
 * quota.day.remaining      // 1000
 * quota.banned             // false
 */
export interface QuotaStanding {
  /** The limit of the binding window (`X-RateLimit-Limit`). */
  limit: number
  /** Requests left in the binding window, 0 while banned (`X-RateLimit-Remaining`). */
  remaining: number
  /** Unix time in seconds at which the binding window, or the ban, ends (`X-RateLimit-Reset`). */
  reset: number
  /** Whether requests are refused with 429 `temporarily_banned` right now (D15). */
  banned: boolean
  /** The UTC-minute window: its limit, requests counted, requests left, end in Unix seconds. */
  minute: QuotaWindow
  /** The UTC-day window, likewise. */
  day: QuotaWindow
  /** Requests refused in the current refusal window, counted towards a ban. */
  refused: number
  /** Epoch ms at which the current ban ends, or undefined when not banned. */
  bannedUntil: number | undefined
}

/**
 * One fixed window of a key's quota.
 *
 * @example
 * const { used, remaining } = sandbox.quota.get('sandbox-pro-key').minute
 */
export interface QuotaWindow {
  limit: number
  used: number
  remaining: number
  /** Unix time in seconds at which the window ends. */
  reset: number
}

/**
 * A change to a key's quota: what is left in a window (D13), or a ban to start or lift; held to `QuotaChange`.
 *
 * @example
 * sandbox.quota.set('sandbox-free-key', { remaining: 0 })     // the next request is a 429 for the rest of the minute
 * sandbox.quota.set('sandbox-free-key', { dayRemaining: 5 })  // five left today
 * sandbox.quota.set('sandbox-free-key', { banned: 120 })      // banned for two minutes
 */
export interface QuotaChange {
  remaining?: number
  minuteRemaining?: number
  dayRemaining?: number
  banned?: boolean | number
}

/** A key's (or a client address's) counters: the two windows (D12), the refusals and the ban (D15). */
export interface Bucket {
  minuteStart: number
  minuteUsed: number
  dayStart: number
  dayUsed: number
  refusedWindowStart: number
  refused: number
  bannedUntil: number
}
