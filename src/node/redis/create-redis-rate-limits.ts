import type { Limits } from '../../core/auth/plans.js'
import type { HttpError } from '../../core/errors/http-error.js'
import { invalidKey } from '../../core/pipeline/admit.js'
import { type Bucket, describeBucket } from '../../core/rate-limit/describe-bucket.js'
import { WINDOW_MS } from '../../core/rate-limit/windows.js'
import type { QuotaChange, RateDecision } from '../../core/state/rate-limit-backend.js'
import type { RateLimitBackend } from '../../core/state/rate-limit-backend.js'
import type { ListingAhead, ListQuery } from '../../core/state/pet-repository.js'
import type { PetStatus } from '../../core/store/pet.js'
import type { RedisGroupPages } from './create-redis-pages.js'

/** What the state tells a world with each decision, and in `followWorlds`. */
export interface WorldNews {
  offset: string
  /** Changes with each reset or replacement. */
  generation: string
  version: string
  /** The settings' JSON ('' while none were set) when their version moved; null otherwise. */
  settings: string | null
}

export interface RedisRateLimitsOptions {
  /** Runs a world's script, ARGV from 5 on. */
  run: (script: 'quota' | 'quotaThenList', ...args: Array<string | number>) => Promise<unknown>
  banAfter: number
  banSeconds: number
  known: () => { version: string; max: number; idleMs: number }
  onNews: (news: WorldNews, drops: string) => void
  /** Told of a bound key the session holds no more (D46). */
  onUnbound?: (key: string) => void
  pages: RedisGroupPages
}

/** A page of pets read with the next decision, in `quotaThenList`. */
export interface RedisListing extends ListingAhead {
  readonly status: PetStatus | undefined
  readonly limit: number
  text: string | undefined
}

export function redisListing({ status, limit }: ListQuery): RedisListing {
  const listing: RedisListing = {
    readAhead: true,
    status,
    limit,
    text: undefined,
    page: () => listing.text,
  }
  return listing
}

/** Creates a session's rate limiter on Redis: one script per decision, exact across processes (D21). */
export function createRedisRateLimits(options: RedisRateLimitsOptions): RateLimitBackend<'later'> {
  const { banAfter, banSeconds } = options
  const banMs = Math.round(banSeconds * 1000)

  type Decided = { outcome: number; t: number; bucket: Bucket; page?: string | undefined }

  const head = (mode: 'take' | 'peek' | 'arrange', id: string, limits: Limits) => {
    const { version, max, idleMs } = options.known()
    return [id, limits.perMinute, limits.perDay, banAfter, banMs, mode, version, max, idleMs]
  }

  const quota = async (
    mode: 'take' | 'peek' | 'arrange',
    id: string,
    limits: Limits,
    change: string[] = ['', '', '', ''],
  ): Promise<Decided> => {
    const bound = boundOf(limits)
    const reply = await options.run(
      'quota',
      ...head(mode, id, limits),
      ...change,
      WINDOW_MS.minute,
      WINDOW_MS.day,
      bound,
    )
    if (reply === -5) throw unbound(options, bound)
    return decided(reply as Fields, options.onNews)
  }

  const decide = (outcome: number, bucket: Bucket, limits: Limits, t: number): RateDecision => {
    if (outcome === 2) return describeBucket.banned(bucket, limits, t)
    return outcome === 1 ? describeBucket.limited(bucket, limits, t) : describeBucket.allowed(bucket, limits)
  }

  return {
    async take(id, limits, ahead) {
      if (ahead === undefined) {
        const { outcome, t, bucket } = await quota('take', id, limits)
        return decide(outcome, bucket, limits, t)
      }
      const listing = ahead as RedisListing
      const bound = boundOf(limits)
      const kept = options.pages.kept(listing.status, listing.limit)
      const reply = await options.run(
        'quotaThenList',
        ...head('take', id, limits),
        '',
        '',
        '',
        '',
        WINDOW_MS.minute,
        WINDOW_MS.day,
        bound,
        listing.status ?? '',
        listing.limit,
        kept?.generation ?? '',
      )
      if (reply === -5) throw unbound(options, bound)
      const { outcome, t, bucket, page, of } = fromText(reply as string, options.onNews)
      // Never parsed (BENCHMARKS.md, Redis).
      listing.text = outcome !== 0 ? undefined : (page ?? (kept?.generation === of ? kept.text : undefined))
      if (page !== undefined && of !== '')
        options.pages.keep(listing.status, listing.limit, { generation: of, text: page })
      return decide(outcome, bucket, limits, t)
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
        change.banned === false
          ? 'lift'
          : change.banned === undefined
            ? ''
            : String(Math.round((change.banned === true ? banSeconds : change.banned) * 1000))
      const { t, bucket } = await quota('arrange', id, limits, [
        text(change.minuteRemaining),
        text(change.dayRemaining),
        text(change.remaining),
        ban,
      ])
      return describeBucket.quota(bucket, limits, t)
    },
    // A reset switches the buckets' generation.
    clear: async () => undefined,
  }
}

/** Returns the bound key (D46) the limits are of, or ''. */
function boundOf(limits: Limits): string {
  return 'session' in limits && 'key' in limits ? String(limits.key) : ''
}

/** Refuses a bound key whose session went as unknown (D17). */
function unbound(options: RedisRateLimitsOptions, key: string): HttpError {
  options.onUnbound?.(key)
  return invalidKey()
}

// The quota script's 14 fields (redis-scripts.ts).
type Fields = [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  string,
  string,
  string,
  string | null,
  string,
]

function decided(fields: Fields, onNews: RedisRateLimitsOptions['onNews']) {
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
    generation,
    version,
    settings,
    drops,
  ] = fields
  onNews({ offset, generation, version, settings }, drops)
  const bucket: Bucket = { minuteStart, minuteUsed, dayStart, dayUsed, refusedWindowStart, refused, bannedUntil }
  return { outcome, t, bucket }
}

/** Reads `quotaThenList`'s text (redis-scripts.ts). */
function fromText(text: string, onNews: RedisRateLimitsOptions['onNews']) {
  const fields: string[] = []
  let start = 0
  for (let i = 0; i < 15; i++) {
    const end = text.indexOf('\n', start)
    fields.push(text.slice(start, end))
    start = end + 1
  }
  const page = text.slice(start)
  const numbers = fields.slice(0, 9).map(Number)
  const [offset = '0', generation = '', version = '0', settings = '', drops = '', of = ''] = fields.slice(9)
  return {
    ...decided(
      [...numbers, offset, generation, version, settings === '' ? null : settings.slice(1), drops] as Fields,
      onNews,
    ),
    page: page === '' ? undefined : page,
    of,
  }
}

/** Packs a bucket as the scripts keep it. */
export function packBucket(bucket: Bucket): string {
  return [
    bucket.minuteStart,
    bucket.minuteUsed,
    bucket.dayStart,
    bucket.dayUsed,
    bucket.refusedWindowStart,
    bucket.refused,
    bucket.bannedUntil,
  ].join(' ')
}
