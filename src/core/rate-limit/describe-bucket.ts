import type { Limits } from '../auth/plans.js'
import type { Bucket, QuotaStanding, RateDecision } from '../state/rate-limit-backend.js'
import { windowEnd } from './windows.js'

export type { Bucket } from '../state/rate-limit-backend.js'

/** Words a bucket for memory and Redis alike. */
export const describeBucket = {
  /** Describes the window with fewer requests left, the minute on ties (D13). */
  allowed(bucket: Bucket, limits: Limits): RateDecision {
    const minuteLeft = Math.max(0, limits.perMinute - bucket.minuteUsed)
    const dayLeft = Math.max(0, limits.perDay - bucket.dayUsed)
    return dayLeft < minuteLeft
      ? {
          outcome: 'allowed',
          limit: limits.perDay,
          remaining: dayLeft,
          reset: windowEnd(bucket.dayStart, 'day') / 1000,
        }
      : {
          outcome: 'allowed',
          limit: limits.perMinute,
          remaining: minuteLeft,
          reset: windowEnd(bucket.minuteStart, 'minute') / 1000,
        }
  },

  /** Words a refusal by the window that must roll over. */
  limited(bucket: Bucket, limits: Limits, t: number): RateDecision {
    const dayBinds = limits.perDay - bucket.dayUsed <= 0
    const end = dayBinds ? windowEnd(bucket.dayStart, 'day') : windowEnd(bucket.minuteStart, 'minute')
    return {
      outcome: 'rate_limited',
      limit: dayBinds ? limits.perDay : limits.perMinute,
      remaining: 0,
      reset: Math.ceil(end / 1000),
      retryAfter: secondsUntil(end, t),
    }
  },

  /** Words a ban: `Retry-After` at the later of its end and a spent window's (D14). */
  banned(bucket: Bucket, limits: Limits, t: number): RateDecision {
    const spentUntil =
      bucket.dayUsed >= limits.perDay
        ? windowEnd(bucket.dayStart, 'day')
        : bucket.minuteUsed >= limits.perMinute
          ? windowEnd(bucket.minuteStart, 'minute')
          : 0
    return {
      outcome: 'temporarily_banned',
      limit: limits.perMinute,
      remaining: 0,
      reset: Math.ceil(bucket.bannedUntil / 1000),
      retryAfter: secondsUntil(Math.max(bucket.bannedUntil, spentUntil), t),
    }
  },

  peek(bucket: Bucket, limits: Limits, t: number): RateDecision {
    return bucket.bannedUntil > t ? describeBucket.banned(bucket, limits, t) : describeBucket.allowed(bucket, limits)
  },

  quota(bucket: Bucket, limits: Limits, t: number): QuotaStanding {
    const headers =
      bucket.bannedUntil > t
        ? describeBucket.banned(bucket, limits, t)
        : bucket.dayUsed >= limits.perDay
          ? {
              outcome: 'rate_limited' as const,
              limit: limits.perDay,
              remaining: 0,
              reset: windowEnd(bucket.dayStart, 'day') / 1000,
            }
          : describeBucket.allowed(bucket, limits)
    return {
      limit: headers.limit,
      remaining: headers.remaining,
      reset: headers.reset,
      banned: headers.outcome === 'temporarily_banned',
      minute: {
        limit: limits.perMinute,
        used: bucket.minuteUsed,
        remaining: Math.max(0, limits.perMinute - bucket.minuteUsed),
        reset: windowEnd(bucket.minuteStart, 'minute') / 1000,
      },
      day: {
        limit: limits.perDay,
        used: bucket.dayUsed,
        remaining: Math.max(0, limits.perDay - bucket.dayUsed),
        reset: windowEnd(bucket.dayStart, 'day') / 1000,
      },
      refused: refusalsInForce(bucket, bucket.minuteStart, bucket.dayStart) ? bucket.refused : 0,
      bannedUntil: bucket.bannedUntil > t ? bucket.bannedUntil : undefined,
    }
  },
}

/** Tells whether refusals still count towards a ban (D15). */
export function refusalsInForce(bucket: Bucket, minuteStart: number, dayStart: number): boolean {
  return bucket.refused > 0 && (bucket.refusedWindowStart === minuteStart || bucket.refusedWindowStart === dayStart)
}

function secondsUntil(end: number, t: number): number {
  return Math.max(1, Math.ceil((end - t) / 1000))
}
