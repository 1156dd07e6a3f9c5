import type { Limits } from '../auth/plans.js'
import type { QuotaChange, QuotaState, RateDecision } from '../state/rate-limit-backend.js'
import { type Bucket, DAY_MS, describeBucket, MINUTE_MS } from './describe-bucket.js'

export interface RateLimiterOptions {
  now: () => number
  /** Refused requests in one window after which a bucket is banned (D15). */
  banAfter: number
  /** Length of a ban in seconds (D15). */
  banSeconds: number
}

/**
 * Two fixed windows per bucket, the UTC minute and the UTC day (D12). `take` decides synchronously,
 * so concurrent requests are admitted exactly up to the quota: JavaScript runs one `take` at a time.
 */
export function createRateLimiter({ now, banAfter, banSeconds }: RateLimiterOptions) {
  const buckets = new Map<string, Bucket>()
  // The minute in which idle buckets were last evicted (see evictIdle).
  let sweptMinute: number | undefined

  /**
   * Forgets every bucket that is equivalent to no bucket: its minute and day counts belong to
   * windows that are over (or are zero), no ban is in force, and its refusals were counted in a
   * window that is over. Without it every client address ever seen (D16) would stay in memory.
   * Run once per minute of the limiter's clock, on the first decision of that minute.
   */
  function evictIdle(t: number, minuteStart: number, dayStart: number): void {
    sweptMinute = minuteStart
    for (const [id, bucket] of buckets) {
      const minuteIdle = bucket.minuteStart !== minuteStart || bucket.minuteUsed === 0
      const dayIdle = bucket.dayStart !== dayStart || bucket.dayUsed === 0
      const refusalsIdle = bucket.refused === 0 || (bucket.refusedWindowStart !== minuteStart && bucket.refusedWindowStart !== dayStart)
      if (minuteIdle && dayIdle && refusalsIdle && bucket.bannedUntil <= t) buckets.delete(id)
    }
  }

  function current(id: string, t: number): Bucket {
    const minuteStart = t - (t % MINUTE_MS)
    const dayStart = t - (t % DAY_MS)
    if (sweptMinute !== minuteStart) evictIdle(t, minuteStart, dayStart)
    let bucket = buckets.get(id)
    if (bucket === undefined) {
      bucket = { minuteStart, minuteUsed: 0, dayStart, dayUsed: 0, refusedWindowStart: minuteStart, refused: 0, bannedUntil: 0 }
      buckets.set(id, bucket)
    }
    // A clock moved backwards also starts a new window: counts from "the future" do not apply.
    if (bucket.minuteStart !== minuteStart) {
      bucket.minuteStart = minuteStart
      bucket.minuteUsed = 0
    }
    if (bucket.dayStart !== dayStart) {
      bucket.dayStart = dayStart
      bucket.dayUsed = 0
    }
    return bucket
  }

  function take(id: string, limits: Limits): RateDecision {
    const t = now()
    const bucket = current(id, t)

    if (bucket.bannedUntil > t) return describeBucket.banned(bucket, limits, t)

    if (limits.perMinute - bucket.minuteUsed <= 0 || limits.perDay - bucket.dayUsed <= 0) {
      const windowStart = limits.perDay - bucket.dayUsed <= 0 ? bucket.dayStart : bucket.minuteStart
      if (bucket.refusedWindowStart !== windowStart) {
        bucket.refusedWindowStart = windowStart
        bucket.refused = 0
      }
      bucket.refused++
      if (bucket.refused > banAfter) {
        bucket.bannedUntil = t + banSeconds * 1000
        bucket.refused = 0
        return describeBucket.banned(bucket, limits, t)
      }
      return describeBucket.limited(bucket, limits, t)
    }

    bucket.minuteUsed++
    bucket.dayUsed++
    return describeBucket.allowed(bucket, limits)
  }

  /**
   * The headers a response would carry for this bucket, without counting a request: for answers
   * that spend no quota (CORS preflights).
   */
  function peek(id: string, limits: Limits): RateDecision {
    const t = now()
    return describeBucket.peek(current(id, t), limits, t)
  }

  /** The state of a bucket, without counting a request. */
  function inspect(id: string, limits: Limits): QuotaState {
    const t = now()
    return describeBucket.quota(current(id, t), limits, t)
  }

  /**
   * Arranges a bucket's state, for tests and the admin API (see `QuotaChange`): `remaining` sets
   * the binding window, `minuteRemaining` and `dayRemaining` one window, `banned` a ban.
   */
  function arrange(id: string, limits: Limits, change: QuotaChange): QuotaState {
    const t = now()
    const bucket = current(id, t)
    const clamp = (value: number, limit: number) => Math.min(limit, Math.max(0, Math.floor(value)))
    const minute = change.minuteRemaining ?? change.remaining
    if (minute !== undefined) bucket.minuteUsed = limits.perMinute - clamp(minute, limits.perMinute)
    if (change.dayRemaining !== undefined) {
      bucket.dayUsed = limits.perDay - clamp(change.dayRemaining, limits.perDay)
    } else if (change.remaining !== undefined) {
      // `remaining` is what the headers will say, and the minute binds on ties (D13): the day
      // keeps at least as much, so a 0 is a minute-window 429 rather than a day-long one.
      const dayLeft = limits.perDay - bucket.dayUsed
      bucket.dayUsed = limits.perDay - Math.max(dayLeft, clamp(change.remaining, limits.perDay))
    }
    if (change.banned === false) {
      bucket.bannedUntil = 0
      bucket.refused = 0
    } else if (change.banned !== undefined) {
      const seconds = change.banned === true ? banSeconds : change.banned
      bucket.bannedUntil = t + seconds * 1000
    }
    return inspect(id, limits)
  }

  return {
    take,
    peek,
    inspect,
    arrange,
    /** Forgets every counter and ban. */
    clear: () => buckets.clear(),
    /** How many buckets are held: idle ones are forgotten once a minute. */
    size: () => buckets.size,
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>
