import { Redis } from 'ioredis'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createSandbox, type Sandbox, type SharedSandbox } from '../../src/index.js'
import { connectRedisState } from '../../src/redis.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// On Redis a listing is read in the same script as its rate-limit decision (BENCHMARKS.md, the
// Redis section). It must answer exactly as the in-memory sandbox does, refusals, headers and
// faults included, and cost one script call instead of two.
const contract = createContractChecker()
const api = 'http://api.test/v1'
const free = 'sandbox-free-key'
let redis: RedisServer
let admin: Redis
let shared: SharedSandbox
let memory: Sandbox

beforeAll(async () => {
  redis = await startRedis()
  admin = new Redis(redis.url)
  shared = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'listing:' }),
    baseUrl: api,
    pets: 30,
    seed: 4,
  })
  await shared.ready()
  memory = createSandbox({ baseUrl: api, pets: 30, seed: 4 })
  await memory.ready()
})
afterAll(async () => {
  admin?.disconnect()
  await shared?.close()
  await redis?.remove()
})
beforeEach(async () => {
  await shared.reset({ clock: true })
  await shared.faults.set({})
  await memory.reset({ clock: true })
  await shared.clock.set('2030-01-01T00:00:10Z')
  memory.clock.set('2030-01-01T00:00:10Z')
})

async function call(sandbox: Sandbox | SharedSandbox, path: string): Promise<Response> {
  const response = await sandbox.fetch(`${api}${path}`, { headers: { authorization: `Bearer ${free}` } })
  contract.check('GET', `${api}${path}`, response)
  return response
}

const rateHeaders = (response: Response) =>
  ['limit', 'remaining', 'reset'].map((name) => response.headers.get(`x-ratelimit-${name}`))

async function scriptCalls(): Promise<number> {
  const stats = await admin.info('commandstats')
  return [...stats.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)/gm)].reduce(
    (sum, [, , calls]) => sum + Number(calls),
    0,
  )
}

it('lists the same pages with the same headers as in memory, by status too, created pets included', async () => {
  for (const sandbox of [shared, memory]) await sandbox.pets.create({ name: 'Latest', categoryId: 2, status: 'sold' })
  for (const path of [
    '/pets',
    '/pets?limit=3',
    '/pets?status=sold&limit=100',
    '/pets?status=pending&limit=1',
    '/pets?limit=100',
  ]) {
    const [onRedis, inMemory] = [await call(shared, path), await call(memory, path)]
    expect(onRedis.status, path).toBe(200)
    expect(rateHeaders(onRedis), path).toEqual(rateHeaders(inMemory))
    expect(await onRedis.json(), path).toEqual(await inMemory.json())
  }
})

it('costs one script call per listing', async () => {
  await call(shared, '/pets?limit=1')
  const before = await scriptCalls()
  for (let i = 0; i < 20; i++) expect((await call(shared, '/pets?limit=5')).status).toBe(200)
  const calls = (await scriptCalls()) - before
  // The request log adds one call per batch of entries, never one per request.
  expect(calls).toBeGreaterThanOrEqual(20)
  expect(calls).toBeLessThan(30)
})

it('refuses a listing over its quota with no pets, as in memory, and counts a 400', async () => {
  for (const sandbox of [shared, memory]) await sandbox.quota.set(free, { remaining: 2 })
  for (const path of ['/pets?limit=0', '/pets?limit=2', '/pets?limit=2']) {
    const [onRedis, inMemory] = [await call(shared, path), await call(memory, path)]
    expect([onRedis.status, rateHeaders(onRedis)], path).toEqual([inMemory.status, rateHeaders(inMemory)])
    expect(await onRedis.json(), path).toEqual(await inMemory.json())
  }
  expect((await shared.quota.get(free)).refused).toBe(1)
})

it('answers an injected fault on a listing, not the page', async () => {
  await shared.faults.set({ errorRate: 1, kinds: ['503'] })
  const response = await call(shared, '/pets?limit=2')
  expect(response.status).toBe(503)
  expect(response.headers.get('x-sandbox-fault')).toBe('error=503')
  expect(rateHeaders(response)[1]).toBe('59')
})

it('lists for a key in a scenario as in memory: its page is not read ahead, its input is still checked', async () => {
  for (const sandbox of [shared, memory]) await sandbox.scenarios.set(free, 'empty')
  try {
    for (const path of ['/pets?limit=2', '/pets?limit=0', '/pets?status=lost']) {
      const [onRedis, inMemory] = [await call(shared, path), await call(memory, path)]
      expect([onRedis.status, rateHeaders(onRedis)], path).toEqual([inMemory.status, rateHeaders(inMemory)])
      expect(await onRedis.json(), path).toEqual(await inMemory.json())
    }
  } finally {
    for (const sandbox of [shared, memory]) await sandbox.scenarios.clear(free)
  }
})
