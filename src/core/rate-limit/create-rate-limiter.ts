import type { Limits } from '../auth/plans.js'

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

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
 * A key's quota as tests see it (`sandbox.quota.get(key)`), without counting a request.
 * `limit`, `remaining` and `reset` are what the next response's `X-RateLimit-*` headers would say
 * before it is counted (the binding window, D13, or the ban).
 *
 * @example
 * const quota = sandbox.quota.get('sandbox-free-key')
 * quota.remaining          // 60 in a fresh minute
 * quota.reset              // Unix seconds at which the minute ends
 * quota.day.remaining      // 1000
 * quota.banned             // false
 */
export interface QuotaState {
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
 * A change to a key's quota (`sandbox.quota.set(key, change)`): what the next response's
 * `X-RateLimit-Remaining` says (`remaining`: the minute window, with the day keeping at least as
 * much, D13), what is left in one window, and a ban to start (`true` for `banSeconds`, or a number
 * of seconds) or lift (`false`). Values are capped by each window's limit.
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

interface Bucket {
  minuteStart: number
  minuteUsed: number
  dayStart: number
  dayUsed: number
  refusedWindowStart: number
  refused: number
  bannedUntil: number
}

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

  function current(id: string, t: number): Bucket {
    const minuteStart = t - (t % MINUTE_MS)
    const dayStart = t - (t % DAY_MS)
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

    if (bucket.bannedUntil > t) return banned(bucket, limits, t)

    const minuteLeft = limits.perMinute - bucket.minuteUsed
    const dayLeft = limits.perDay - bucket.dayUsed
    if (minuteLeft <= 0 || dayLeft <= 0) {
      // The refusing window is the one that must roll over before a retry can succeed: the day
      // when it is spent (it ends last), otherwise the minute.
      const dayBinds = dayLeft <= 0
      const windowEnd = dayBinds ? bucket.dayStart + DAY_MS : bucket.minuteStart + MINUTE_MS
      const windowStart = dayBinds ? bucket.dayStart : bucket.minuteStart
      if (bucket.refusedWindowStart !== windowStart) {
        bucket.refusedWindowStart = windowStart
        bucket.refused = 0
      }
      bucket.refused++
      if (bucket.refused > banAfter) {
        bucket.bannedUntil = t + banSeconds * 1000
        bucket.refused = 0
        return banned(bucket, limits, t)
      }
      return {
        outcome: 'rate_limited',
        limit: dayBinds ? limits.perDay : limits.perMinute,
        remaining: 0,
        reset: Math.ceil(windowEnd / 1000),
        retryAfter: secondsUntil(windowEnd, t),
      }
    }

    bucket.minuteUsed++
    bucket.dayUsed++
    return binding(bucket, limits)
  }

  /** D13: the window with fewer requests left (the minute on ties), as headers describe it. */
  function binding(bucket: Bucket, limits: Limits): RateDecision {
    const minuteLeft = Math.max(0, limits.perMinute - bucket.minuteUsed)
    const dayLeft = Math.max(0, limits.perDay - bucket.dayUsed)
    return dayLeft < minuteLeft
      ? { outcome: 'allowed', limit: limits.perDay, remaining: dayLeft, reset: (bucket.dayStart + DAY_MS) / 1000 }
      : { outcome: 'allowed', limit: limits.perMinute, remaining: minuteLeft, reset: (bucket.minuteStart + MINUTE_MS) / 1000 }
  }

  /**
   * The headers a response would carry for this bucket, without counting a request: for answers
   * that spend no quota (CORS preflights).
   */
  function peek(id: string, limits: Limits): RateDecision {
    const t = now()
    const bucket = current(id, t)
    return bucket.bannedUntil > t ? banned(bucket, limits, t) : binding(bucket, limits)
  }

  function banned(bucket: Bucket, limits: Limits, t: number): RateDecision {
    return {
      outcome: 'temporarily_banned',
      limit: limits.perMinute,
      remaining: 0,
      reset: Math.ceil(bucket.bannedUntil / 1000),
      retryAfter: secondsUntil(bucket.bannedUntil, t),
    }
  }

  /** The state of a bucket, without counting a request. */
  function inspect(id: string, limits: Limits): QuotaState {
    const t = now()
    const bucket = current(id, t)
    // As the next request would be told: the ban, else the window a refusal names (the day once
    // it is spent, as in `take`), else the binding window.
    const headers =
      bucket.bannedUntil > t
        ? banned(bucket, limits, t)
        : bucket.dayUsed >= limits.perDay
          ? { outcome: 'rate_limited' as const, limit: limits.perDay, remaining: 0, reset: (bucket.dayStart + DAY_MS) / 1000 }
          : binding(bucket, limits)
    return {
      limit: headers.limit,
      remaining: headers.remaining,
      reset: headers.reset,
      banned: headers.outcome === 'temporarily_banned',
      minute: {
        limit: limits.perMinute,
        used: bucket.minuteUsed,
        remaining: Math.max(0, limits.perMinute - bucket.minuteUsed),
        reset: (bucket.minuteStart + MINUTE_MS) / 1000,
      },
      day: {
        limit: limits.perDay,
        used: bucket.dayUsed,
        remaining: Math.max(0, limits.perDay - bucket.dayUsed),
        reset: (bucket.dayStart + DAY_MS) / 1000,
      },
      refused: bucket.refused,
      bannedUntil: bucket.bannedUntil > t ? bucket.bannedUntil : undefined,
    }
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
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

function secondsUntil(end: number, t: number): number {
  return Math.max(1, Math.ceil((end - t) / 1000))
}
