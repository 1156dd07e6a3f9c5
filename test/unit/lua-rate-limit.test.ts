import { expect, it } from 'vitest'
import { createRedisPages } from '../../src/node/redis/create-redis-pages.js'
import { createRedisRateLimits, redisListing } from '../../src/node/redis/create-redis-rate-limits.js'
import { REDIS_SCRIPTS } from '../../src/node/redis/redis-scripts.js'
import { assertDecidesAsInMemory, LIMITS, POLICY } from '../support/rate-limit-equivalence.js'
import { createLuaRedis } from '../support/run-redis-lua.js'

// The quota script, run in a Lua VM without redis-server, decides as the in-memory limiter: the
// generated sequences the Redis tier runs on redis-server (redis-rate-limit-equivalence.test.ts).
const PREFIX = 'lua:'

/** The default session's rate limiter over the quota script, as create-redis-world.ts runs it, on a fresh stand-in of Redis. */
function luaRateLimits(source: () => number, replies: unknown[] = []) {
  const redis = createLuaRedis()
  // The start-up pets' identity, as seeding leaves it: the script answers -1 without it.
  redis.call('HSET', `${PREFIX}meta`, 'base', '1', 'lastId', '0', 'count', '0')
  let version = ''
  const rateLimits = createRedisRateLimits({
    run: async (script, ...args) => {
      const reply = redis.run(REDIS_SCRIPTS[script], [`${PREFIX}meta`], [PREFIX, 'default', source(), '', ...args])
      replies.push(reply)
      return reply
    },
    pages: createRedisPages().of(PREFIX),
    ...POLICY,
    known: () => ({ version, max: 10, idleMs: 3_600_000 }),
    onNews(news) {
      version = news.version
    },
  })
  return { redis, rateLimits }
}

it('decides every generated sequence exactly as the in-memory limiter, in a Lua VM', async () => {
  await assertDecidesAsInMemory('rate-limit equivalence in a Lua VM', (source) => luaRateLimits(source).rateLimits)
}, 120_000)

it('keeps a key bucket in the world and an address bucket in its own key, each as "ms mu ds du rs rc bu"', async () => {
  const now = Date.UTC(2030, 0, 1, 10, 15)
  const { redis, rateLimits } = luaRateLimits(() => now)
  expect(await rateLimits.take('key:k', LIMITS)).toEqual({
    outcome: 'allowed',
    limit: 3,
    remaining: 2,
    reset: now / 1000 + 60,
  })
  expect(await rateLimits.take('ip:192.0.2.1', LIMITS)).toMatchObject({ outcome: 'allowed', remaining: 2 })
  const generation = redis.call('HGET', `${PREFIX}s:default`, 'gen')
  const day = Date.UTC(2030, 0, 1)
  expect(redis.call('HGET', `${PREFIX}s:default:${generation}:q`, 'key:k')).toBe(`${now} 1 ${day} 1 ${now} 0 0`)
  expect(redis.call('GET', `${PREFIX}s:default:${generation}:rl:ip:192.0.2.1`)).toBe(`${now} 1 ${day} 1 ${now} 0 0`)
})

it('counts in windows of the lengths it is given, not of lengths of its own', async () => {
  const now = Date.UTC(2030, 0, 1, 10, 15, 10)
  const redis = createLuaRedis()
  redis.call('HSET', `${PREFIX}meta`, 'base', '1', 'lastId', '0', 'count', '0')
  // A 30 s "minute": the window holding 10:15:10 starts at 10:15:00 either way, but one holding 10:15:40 does not.
  const quota = (t: number) =>
    redis.run(
      REDIS_SCRIPTS.quota,
      [`${PREFIX}meta`],
      [PREFIX, 'default', t, '', 'key:k', 1, 5, 2, 30_000, 'take', '', 10, 1, '', '', '', '', 30_000, 86_400_000],
    )
  expect((quota(now) as number[])[0]).toBe(0)
  expect((quota(now + 30_000) as number[]).slice(0, 4)).toEqual([0, now + 30_000, Date.UTC(2030, 0, 1, 10, 15, 30), 1])
})

it('answers -5 and makes nothing for a bound key its session holds no more (D46), and decides one it holds', async () => {
  const now = Date.UTC(2030, 0, 1, 10, 15)
  const redis = createLuaRedis()
  redis.call('HSET', `${PREFIX}meta`, 'base', '1', 'lastId', '0', 'count', '0')
  const quota = () =>
    redis.run(
      REDIS_SCRIPTS.quota,
      [`${PREFIX}meta`],
      [
        PREFIX,
        'w1',
        now,
        60_000,
        'key:sbk_k',
        5,
        50,
        2,
        30_000,
        'take',
        '',
        10,
        60_000,
        '',
        '',
        '',
        '',
        60_000,
        86_400_000,
        'sbk_k',
      ],
    )
  expect(quota()).toBe(-5)
  expect(redis.call('EXISTS', `${PREFIX}s:w1`)).toBe(0)
  redis.call('HSET', `${PREFIX}s:w1`, 'K:sbk_k', '{"plan":"pro"}')
  expect((quota() as number[])[0]).toBe(0)
})

it("leaves out of the listing script's answer the base's page this process keeps, and only that", async () => {
  const now = Date.UTC(2030, 0, 1, 10, 15)
  const replies: unknown[] = []
  const { redis, rateLimits } = luaRateLimits(() => now, replies)
  const pets = [1, 2, 3].map((id) => `{"id":${id},"name":"P${id}","categoryId":1,"status":"sold"}`)
  redis.call('HSET', `${PREFIX}meta`, 'base', '1', 'lastId', '3', 'count', '3')
  for (const [index, pet] of pets.entries()) {
    redis.call('ZADD', `${PREFIX}base:1:ids`, String(index + 1), String(index + 1))
    redis.call('HSET', `${PREFIX}base:1:pets`, String(index + 1), pet)
  }
  const list = async (limit: number) => {
    const listing = redisListing({ status: undefined, limit })
    await rateLimits.take('key:k', { ...LIMITS, perMinute: 100, perDay: 100 }, listing)
    return { page: listing.page(), answered: String(replies.at(-1)) }
  }
  const first = await list(2)
  expect(first.page).toBe(`[${pets[0]},${pets[1]}]`)
  expect(first.answered.endsWith(`\n1\n${first.page}`)).toBe(true)
  // Kept: the script answers the generation alone, and the page is this process's copy.
  expect(await list(2)).toEqual({ page: first.page, answered: expect.stringMatching(/\n1\n$/) })
  // Another limit is another page.
  expect((await list(3)).page).toBe(`[${pets.join(',')}]`)
  // A new generation of the base: the kept page is not the one in force.
  redis.call('HSET', `${PREFIX}s:default`, 'base', '2')
  redis.call('ZADD', `${PREFIX}base:2:ids`, '1', '1')
  redis.call('HSET', `${PREFIX}base:2:pets`, '1', pets[2]!)
  expect(await list(2)).toEqual({ page: `[${pets[2]}]`, answered: expect.stringMatching(/\n2\n\[/) })
  // A world standing alone (a capsule's): its page is its own, never kept.
  redis.call('HSET', `${PREFIX}s:default`, 'own', '1')
  expect(await list(2)).toEqual({ page: '[]', answered: expect.stringMatching(/\n\n\[\]$/) })
  expect(await list(2)).toEqual({ page: '[]', answered: expect.stringMatching(/\n\n\[\]$/) })
})
