import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { QuotaChange } from '../../src/core/state/rate-limit-backend.js'
import { createRateLimiter } from '../../src/core/rate-limit/create-rate-limiter.js'
import type { SharedState } from '../../src/core/state/shared-state.js'
import { connectRedisState } from '../../src/redis.js'
import { fuzzSeed } from '../support/request-arbitrary.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// The Lua script decides as the in-memory limiter does: the same generated sequences of requests,
// arrangements and clock moves get the same decisions, headers and quotas from both.
const RUNS = Number(process.env.FUZZ_RUNS ?? 100)
const LIMITS = { perMinute: 3, perDay: 5 }
const POLICY = { banAfter: 2, banSeconds: 30 }

let redis: RedisServer
let shared: SharedState

beforeAll(async () => {
  redis = await startRedis()
  shared = await connectRedisState({ url: redis.url, prefix: 'equivalence:' })
  await shared.pets({ seed: 1, pets: 0, draw: () => [] }, { maxPets: 0 }).start()
})
afterAll(async () => {
  await shared?.close()
  await redis?.remove()
})

const step = fc.oneof(
  fc.record({ kind: fc.constant('take' as const), bucket: fc.constantFrom('a', 'b') }),
  fc.record({ kind: fc.constant('peek' as const), bucket: fc.constantFrom('a', 'b') }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 90_000 }) }),
  fc.record({
    kind: fc.constant('arrange' as const),
    bucket: fc.constantFrom('a', 'b'),
    change: fc.record(
      {
        remaining: fc.integer({ min: 0, max: 8 }),
        minuteRemaining: fc.integer({ min: 0, max: 8 }),
        dayRemaining: fc.integer({ min: 0, max: 8 }),
        banned: fc.oneof(fc.boolean(), fc.integer({ min: 1, max: 60 })),
      },
      { requiredKeys: [] },
    ),
  }),
)

it('decides every generated sequence exactly as the in-memory limiter', async () => {
  const seed = fuzzSeed()
  console.log(`rate-limit equivalence: seed ${seed}, ${RUNS} runs (FUZZ_SEED=${seed} reproduces them)`)
  let run = 0
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000_000 }), fc.array(step, { maxLength: 40 }), async (start, steps) => {
      // A time of its own per run, shared by both limiters; fresh buckets per run.
      let now = Date.UTC(2030, 0, 1) + start
      const source = () => now
      const memory = createRateLimiter({ now: source, ...POLICY })
      const onRedis = shared.rateLimits({ source, ...POLICY })
      run++
      const ids = { a: `run-${run}-a`, b: `run-${run}-b` }
      for (const next of steps) {
        if (next.kind === 'advance') {
          now += next.ms
          continue
        }
        const bucket = ids[next.bucket]
        if (next.kind === 'arrange') {
          const change = next.change as QuotaChange
          expect(await onRedis.arrange(bucket, LIMITS, change)).toEqual(memory.arrange(bucket, LIMITS, change))
        } else {
          expect(await onRedis[next.kind](bucket, LIMITS)).toEqual(memory[next.kind](bucket, LIMITS))
        }
        expect(await onRedis.inspect(bucket, LIMITS)).toEqual(memory.inspect(bucket, LIMITS))
      }
    }),
    { numRuns: RUNS, seed },
  )
})

it('names in Retry-After the end of a spent day that outlasts a ban, on Redis as in memory (D14)', async () => {
  let now = Date.UTC(2030, 0, 1, 10, 0, 30)
  const source = () => now
  const policy = { banAfter: 1, banSeconds: 3 }
  const memory = createRateLimiter({ now: source, ...policy })
  const onRedis = shared.rateLimits({ source, ...policy })
  const untilMidnight = Math.ceil((Date.UTC(2030, 0, 2) - now) / 1000)
  for (const limiter of [memory, onRedis]) {
    await limiter.arrange('spent-day', LIMITS, { dayRemaining: 0 })
    expect((await limiter.take('spent-day', LIMITS)).outcome).toBe('rate_limited')
    expect(await limiter.take('spent-day', LIMITS)).toMatchObject({ outcome: 'temporarily_banned', reset: now / 1000 + 3, retryAfter: untilMidnight })
  }
  now += 3_000
  expect(await onRedis.take('spent-day', LIMITS)).toMatchObject({ outcome: 'rate_limited', retryAfter: untilMidnight - 3 })
})
