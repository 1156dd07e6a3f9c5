import type { Limits } from '../auth/plans.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { ReadAhead } from './read-ahead.js'

/** Keeps windows, refusals and bans in memory, or shared in one round trip per request. */
export interface RateLimitBackend<Of extends Timing = Timing> {
  /** Counts a request; runs `ahead`'s read in the same step when allowed. */
  take(id: string, limits: Limits, ahead?: ReadAhead): Answer<RateDecision, Of>
  peek(id: string, limits: Limits): Answer<RateDecision, Of>
  inspect(id: string, limits: Limits): Answer<QuotaStanding, Of>
  arrange(id: string, limits: Limits, change: QuotaChange): Answer<QuotaStanding, Of>
  clear(): Answer<void, Of>
}

/** Says what the rate limiter decided, and the `X-RateLimit-*` values to send. */
export interface RateDecision {
  outcome: 'allowed' | 'rate_limited' | 'temporarily_banned'
  limit: number
  remaining: number
  /** Gives the end of the window or ban, in Unix seconds. */
  reset: number
  /** Gives whole seconds until a retry can succeed, at least 1 (D14). */
  retryAfter?: number
}

/** Gives a key's quota as the next response's `X-RateLimit-*` would, before counting it (D13). */
export interface QuotaStanding {
  limit: number
  /** Gives the binding window's requests left, 0 while banned. */
  remaining: number
  /** Gives the end of the binding window or ban, in Unix seconds. */
  reset: number
  /** Tells whether requests are refused as `temporarily_banned` now (D15). */
  banned: boolean
  minute: QuotaWindow
  day: QuotaWindow
  /** Counts the refusals towards a ban. */
  refused: number
  /** Gives the ban's end in epoch ms. */
  bannedUntil: number | undefined
}

/** Gives one fixed UTC window of a key's quota; `reset` is its end in Unix seconds. */
export interface QuotaWindow {
  limit: number
  used: number
  remaining: number
  reset: number
}

/** Changes what is left in a window (D13), or starts (for good or for seconds) or lifts a ban. */
export interface QuotaChange {
  remaining?: number
  minuteRemaining?: number
  dayRemaining?: number
  banned?: boolean | number
}

/** Counts a key's or address's windows (D12), refusals and ban (D15). */
export interface Bucket {
  minuteStart: number
  minuteUsed: number
  dayStart: number
  dayUsed: number
  refusedWindowStart: number
  refused: number
  bannedUntil: number
}
