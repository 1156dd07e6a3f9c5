import { afterAll, beforeAll, expect, it } from 'vitest'
import { createRateLimiter } from '../../src/core/rate-limit/create-rate-limiter.js'
import type { SharedState } from '../../src/core/state/shared-state.js'
import { connectRedisState } from '../../src/redis.js'
import { assertDecidesAsInMemory, LIMITS, POLICY } from '../support/rate-limit-equivalence.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// The Lua script decides as the in-memory limiter does, on redis-server: the same generated
// sequences as test/unit/lua-rate-limit.test.ts runs in a Lua VM without it.
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

it('decides every generated sequence exactly as the in-memory limiter', async () => {
  await assertDecidesAsInMemory('rate-limit equivalence on Redis', (source) => shared.rateLimits({ source, ...POLICY }))
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
    expect(await limiter.take('spent-day', LIMITS)).toMatchObject({
      outcome: 'temporarily_banned',
      reset: now / 1000 + 3,
      retryAfter: untilMidnight,
    })
  }
  now += 3_000
  expect(await onRedis.take('spent-day', LIMITS)).toMatchObject({
    outcome: 'rate_limited',
    retryAfter: untilMidnight - 3,
  })
})
