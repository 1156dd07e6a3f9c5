import type { Limits } from '../../core/auth/plans.js'
import { type Bucket, describeBucket } from '../../core/rate-limit/describe-bucket.js'
import type { QuotaChange, RateDecision } from '../../core/state/rate-limit-backend.js'
import type { RateLimitBackend } from '../../core/state/rate-limit-backend.js'
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
export function createRedisRateLimits(options: RedisRateLimitsOptions): RateLimitBackend<'later'> {
  const { scripts, keys, source, banAfter, banSeconds } = options
  const banMs = Math.round(banSeconds * 1000)

  type Decided = { outcome: number; t: number; bucket: Bucket; news: SharedNews; page?: string | undefined }

  async function run(script: () => Promise<unknown>, read: (reply: unknown) => Decided): Promise<Decided> {
    try {
      let reply = await script()
      if (reply === -1) {
        await options.reseed()
        reply = await script()
      }
      const decided = read(reply)
      options.onNews(decided.news)
      return decided
    } catch (error) {
      return redisUnavailable(error)
    }
  }

  const quota = (mode: 'take' | 'peek' | 'arrange', id: string, limits: Limits, change: string[] = []) =>
    run(
      () =>
        scripts.quota(keys.meta, keys.prefix, id, limits.perMinute, limits.perDay, source(), banAfter, banMs, mode, options.knownFaultsVersion(), ...change),
      fromFields,
    )

  const decide = (outcome: number, bucket: Bucket, limits: Limits, t: number): RateDecision => {
    if (outcome === 2) return describeBucket.banned(bucket, limits, t)
    return outcome === 1 ? describeBucket.limited(bucket, limits, t) : describeBucket.allowed(bucket, limits)
  }

  return {
    async take(id, limits) {
      const { outcome, t, bucket } = await quota('take', id, limits)
      return decide(outcome, bucket, limits, t)
    },
    async takeThenList(id, limits, { status, limit }) {
      const { outcome, t, bucket, page } = await run(
        () =>
          scripts.quotaThenList(
            keys.meta,
            keys.prefix,
            id,
            limits.perMinute,
            limits.perDay,
            source(),
            banAfter,
            banMs,
            'take',
            options.knownFaultsVersion(),
            '',
            '',
            '',
            '',
            status ?? '',
            limit,
          ),
        (reply) => fromText(reply as string),
      )
      // The page goes out as Redis sent it, never parsed (BENCHMARKS.md, the Redis section).
      return { decision: decide(outcome, bucket, limits, t), page: outcome === 0 ? page : undefined }
    },
    async peek(id, limits) {
      const { t, bucket } = await quota('peek', id, limits)
      return describeBucket.peek(bucket, limits, t)
    },
    async inspect(id, limits) {
      const { t, bucket } = await quota('peek', id, limits)
      return describeBucket.quota(bucket, limits, t)
    },
    async arrange(id, limits, change: QuotaChange) {
      const text = (value: number | undefined) => (value === undefined ? '' : String(value))
      const ban =
        change.banned === false ? 'lift' : change.banned === undefined ? '' : String(Math.round((change.banned === true ? banSeconds : change.banned) * 1000))
      const { t, bucket } = await quota('arrange', id, limits, [text(change.minuteRemaining), text(change.dayRemaining), text(change.remaining), ban])
      return describeBucket.quota(bucket, limits, t)
    },
    // A reset switches the generation the buckets are named after: nothing to clear here.
    clear: async () => undefined,
  }
}

type Fields = [number, number, number, number, number, number, number, number, number, string, string, string | null, string]

function decided([
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
]: Fields) {
  const bucket: Bucket = { minuteStart, minuteUsed, dayStart, dayUsed, refusedWindowStart, refused, bannedUntil }
  return { outcome, t, bucket, news: { offset, faultsVersion, faults, generation } }
}

/** The quota script's reply: its 13 fields. */
function fromFields(reply: unknown) {
  return decided(reply as Fields)
}

/** `quotaThenList`'s one text: 13 fields, each ended by a newline, then the page's JSON ('' when refused). */
function fromText(text: string) {
  const fields: string[] = []
  let start = 0
  for (let i = 0; i < 13; i++) {
    const end = text.indexOf('\n', start)
    fields.push(text.slice(start, end))
    start = end + 1
  }
  const numbers = fields.slice(0, 9).map(Number)
  const [offset = '0', faultsVersion = '0', faults = '', generation = ''] = fields.slice(9)
  const page = text.slice(start)
  return { ...decided([...numbers, offset, faultsVersion, faults === '' ? null : faults, generation] as Fields), page: page === '' ? undefined : page }
}
