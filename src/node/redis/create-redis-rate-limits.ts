import type { Limits } from '../../core/auth/plans.js'
import { type Bucket, describeBucket } from '../../core/rate-limit/describe-bucket.js'
import type { QuotaChange, RateDecision } from '../../core/rate-limit/create-rate-limiter.js'
import type { RateLimitBackend } from '../../core/state/rate-limit-backend.js'
import type { ListQuery } from '../../core/store/create-pet-store.js'
import type { Pet } from '../../core/store/pet.js'
import type { RedisKeys } from './redis-keys.js'
import type { RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

/** What every answer of the quota script also carries: the shared clock offset and faults. */
export interface SharedNews {
  offset: string
  faultsVersion: string
  /** The faults' JSON, only when their version differs from `known()`. */
  faults: string | null
  /** The generation in force: it changes with each reset. */
  generation: string
}

export interface RedisRateLimitsOptions {
  scripts: RedisScripts
  keys: RedisKeys
  /** The time source, without the shared offset: the script adds it. */
  source: () => number
  banAfter: number
  banSeconds: number
  /** The faults version this process last took up. */
  knownFaultsVersion: () => string
  onNews: (news: SharedNews) => void
  /** Seeds the state again when the script found it empty (Redis came back without its data). */
  reseed: () => Promise<void>
}

/**
 * The rate limiter on Redis: every decision is one run of the quota script, atomic in Redis, so a
 * key's quota is exact across every process sharing it, bursts included (docs/decisions.md#d21).
 * The headers are worded by the same code as in memory (describeBucket).
 */
export function createRedisRateLimits(options: RedisRateLimitsOptions): RateLimitBackend {
  const { scripts, keys, source, banAfter, banSeconds } = options
  const banMs = Math.round(banSeconds * 1000)

  async function run(mode: 'take' | 'peek' | 'arrange', id: string, limits: Limits, change: string[] = [], list?: ListQuery) {
    const call = () =>
      list === undefined
        ? scripts.quota(keys.meta, keys.prefix, id, limits.perMinute, limits.perDay, source(), banAfter, banMs, mode, options.knownFaultsVersion(), ...change)
        : scripts.quotaThenList(
            keys.meta,
            keys.prefix,
            id,
            limits.perMinute,
            limits.perDay,
            source(),
            banAfter,
            banMs,
            mode,
            options.knownFaultsVersion(),
            '',
            '',
            '',
            '',
            list.status ?? '',
            list.limit,
          )
    try {
      let reply = await call()
      if (reply === -1) {
        await options.reseed()
        reply = await call()
      }
      const [
        outcome,
        t,
        minuteStart,
        minuteUsed,
        dayStart,
        dayUsed,
        refusedWindowStart,
        refused,
        bannedUntil,
        offset,
        faultsVersion,
        faults,
        generation,
        page,
      ] = reply as [number, number, number, number, number, number, number, number, number, string, string, string | null, string, string[] | undefined]
      options.onNews({ offset, faultsVersion, faults, generation })
      const bucket: Bucket = { minuteStart, minuteUsed, dayStart, dayUsed, refusedWindowStart, refused, bannedUntil }
      return { outcome, t, bucket, page }
    } catch (error) {
      return redisUnavailable(error)
    }
  }

  const decide = (outcome: number, bucket: Bucket, limits: Limits, t: number): RateDecision => {
    if (outcome === 2) return describeBucket.banned(bucket, limits, t)
    return outcome === 1 ? describeBucket.limited(bucket, limits, t) : describeBucket.allowed(bucket, limits)
  }

  return {
    async take(id, limits) {
      const { outcome, t, bucket } = await run('take', id, limits)
      return decide(outcome, bucket, limits, t)
    },
    async takeThenList(id, limits, query) {
      const { outcome, t, bucket, page } = await run('take', id, limits, [], query)
      // One parse for the whole page, as the pets' own listing does.
      const pets = outcome === 0 && page !== undefined ? (JSON.parse(`[${page.join(',')}]`) as Pet[]) : undefined
      return { decision: decide(outcome, bucket, limits, t), pets }
    },
    async peek(id, limits) {
      const { t, bucket } = await run('peek', id, limits)
      return describeBucket.peek(bucket, limits, t)
    },
    async inspect(id, limits) {
      const { t, bucket } = await run('peek', id, limits)
      return describeBucket.quota(bucket, limits, t)
    },
    async arrange(id, limits, change: QuotaChange) {
      const text = (value: number | undefined) => (value === undefined ? '' : String(value))
      const ban =
        change.banned === false ? 'lift' : change.banned === undefined ? '' : String(Math.round((change.banned === true ? banSeconds : change.banned) * 1000))
      const { t, bucket } = await run('arrange', id, limits, [text(change.minuteRemaining), text(change.dayRemaining), text(change.remaining), ban])
      return describeBucket.quota(bucket, limits, t)
    },
    // A reset switches the generation the buckets are named after: nothing to clear here.
    clear: () => undefined,
  }
}
