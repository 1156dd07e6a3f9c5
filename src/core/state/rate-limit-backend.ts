import type { Limits } from '../auth/plans.js'
import type { Answer, Timing } from './maybe-promise.js'
import type { ReadAhead } from './read-ahead.js'

/** Keeps windows and bans; shared, in one round trip a request. */
export interface RateLimitBackend<Of extends Timing = Timing> {
  /** Runs `ahead`'s read in the same step. */
  take(id: string, limits: Limits, ahead?: ReadAhead): Answer<RateDecision, Of>
  peek(id: string, limits: Limits): Answer<RateDecision, Of>
  inspect(id: string, limits: Limits): Answer<QuotaStanding, Of>
  arrange(id: string, limits: Limits, change: QuotaChange): Answer<QuotaStanding, Of>
  clear(): Answer<void, Of>
}

export interface RateDecision {
  outcome: 'allowed' | 'rate_limited' | 'temporarily_banned'
  limit: number
  remaining: number
  /** Is in Unix seconds. */
  reset: number
  /** Is whole seconds, at least 1 (D14). */
  retryAfter?: number
}

/** Gives a key's quota as the next `X-RateLimit-*` would (D13). */
export interface QuotaStanding {
  limit: number
  /** Is the binding window's, 0 while banned. */
  remaining: number
  /** Is the binding window's or ban's end, Unix seconds. */
  reset: number
  banned: boolean
  minute: QuotaWindow
  day: QuotaWindow
  /** Counts refusals towards a ban. */
  refused: number
  /** Is in epoch ms. */
  bannedUntil: number | undefined
}

/** Gives one fixed UTC window of a quota; `reset` in Unix seconds. */
export interface QuotaWindow {
  limit: number
  used: number
  remaining: number
  reset: number
}

/** Sets what a window has left (D13); `banned`: true, for seconds, or false to lift. */
export interface QuotaChange {
  remaining?: number
  minuteRemaining?: number
  dayRemaining?: number
  banned?: boolean | number
}

/** Counts windows (D12) and bans (D15). */
export interface Bucket {
  minuteStart: number
  minuteUsed: number
  dayStart: number
  dayUsed: number
  refusedWindowStart: number
  refused: number
  bannedUntil: number
}
