import type { Limits } from '../auth/plans.js'
import type { QuotaChange, QuotaStanding, RateDecision } from '../state/rate-limit-backend.js'
import { type Bucket, describeBucket, refusalsInForce } from './describe-bucket.js'
import { windowStart } from './windows.js'

export interface RateLimiterOptions {
  now: () => number
  /** Bans after this many refusals in a window (D15). */
  banAfter: number
  banSeconds: number
}

/** Creates the in-memory limiter (D12), exact as synchronous. */
export function createRateLimiter({ now, banAfter, banSeconds }: RateLimiterOptions) {
  let buckets = new Map<string, Bucket>()
  const dayCounts = new Map<string, number>()
  let countedDay: number | undefined
  let tidiedMinute: number | undefined

  /** Keeps only a day count of idle buckets (BENCHMARKS.md, "Rate-limit memory per client address"). */
  function tidy(t: number, minuteStart: number, dayStart: number): void {
    tidiedMinute = minuteStart
    if (countedDay !== dayStart) {
      dayCounts.clear()
      countedDay = dayStart
    }
    // Copies, faster than deleting most of a large map.
    const whole = new Map<string, Bucket>()
    for (const [id, bucket] of buckets) {
      const minuteIdle = bucket.minuteStart !== minuteStart || bucket.minuteUsed === 0
      if (!minuteIdle || refusalsInForce(bucket, minuteStart, dayStart) || bucket.bannedUntil > t) whole.set(id, bucket)
      else if (bucket.dayStart === dayStart && bucket.dayUsed > 0) dayCounts.set(id, bucket.dayUsed)
    }
    buckets = whole
  }

  function current(id: string, t: number): Bucket {
    const minuteStart = windowStart(t, 'minute')
    const dayStart = windowStart(t, 'day')
    if (tidiedMinute !== minuteStart) tidy(t, minuteStart, dayStart)
    let bucket = buckets.get(id)
    if (bucket === undefined) {
      const counted = dayCounts.get(id)
      if (counted !== undefined) dayCounts.delete(id)
      bucket = {
        minuteStart,
        minuteUsed: 0,
        dayStart,
        dayUsed: counted ?? 0,
        refusedWindowStart: minuteStart,
        refused: 0,
        bannedUntil: 0,
      }
      buckets.set(id, bucket)
    }
    // Resets on a clock moved back too: future counts do not apply.
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

  /** Returns a bucket's headers without counting a request. */
  function peek(id: string, limits: Limits): RateDecision {
    const t = now()
    return describeBucket.peek(current(id, t), limits, t)
  }

  function inspect(id: string, limits: Limits): QuotaStanding {
    const t = now()
    return describeBucket.quota(current(id, t), limits, t)
  }

  function arrange(id: string, limits: Limits, change: QuotaChange): QuotaStanding {
    const t = now()
    const bucket = current(id, t)
    const clamp = (value: number, limit: number) => Math.min(limit, Math.max(0, Math.floor(value)))
    const minute = change.minuteRemaining ?? change.remaining
    if (minute !== undefined) bucket.minuteUsed = limits.perMinute - clamp(minute, limits.perMinute)
    if (change.dayRemaining !== undefined) {
      bucket.dayUsed = limits.perDay - clamp(change.dayRemaining, limits.perDay)
    } else if (change.remaining !== undefined) {
      // Keeps the day at least at `remaining`: 0 means a minute's 429 (D13).
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

  /** Copies the non-empty buckets under `prefix`, for a fork or capsule (D34). */
  function snapshot(prefix: string): Map<string, Bucket> {
    const t = now()
    const out = new Map<string, Bucket>()
    for (const id of [...buckets.keys(), ...dayCounts.keys()]) {
      if (!id.startsWith(prefix)) continue
      const bucket = current(id, t)
      if (bucket.minuteUsed > 0 || bucket.dayUsed > 0 || bucket.refused > 0 || bucket.bannedUntil > t)
        out.set(id, { ...bucket })
    }
    return out
  }

  function load(loaded: ReadonlyMap<string, Bucket>): void {
    for (const [id, bucket] of loaded) {
      dayCounts.delete(id)
      buckets.set(id, { ...bucket })
    }
  }

  return {
    take,
    peek,
    inspect,
    arrange,
    snapshot,
    load,
    clear: () => {
      buckets.clear()
      dayCounts.clear()
    },
    size: () => buckets.size + dayCounts.size,
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>
