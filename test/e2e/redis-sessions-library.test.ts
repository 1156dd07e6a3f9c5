import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type Pet, type SharedSandbox } from '../../src/index.js'
import { connectRedisState } from '../../src/redis.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// Sessions on Redis through the library: two sandboxes in one Node process, each with its own
// connection, are two replicas of one sandbox, and a session is one world across them
// (docs/decisions.md#d34). The CLI replicas' side is redis-sessions.test.ts.
const contract = createContractChecker()
const api = 'http://api.test/v1'
const PREFIX = 'sessions:'
const drops: string[] = []
let redis: RedisServer
let probe: Redis
let first: SharedSandbox
let second: SharedSandbox

const replica = async () =>
  createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: PREFIX }),
    baseUrl: api,
    pets: 10,
    maxPets: 16,
    sessions: { max: 3, idleMs: 60_000, onDrop: (name, reason) => drops.push(`${name}:${reason.kind}`) },
  })

beforeAll(async () => {
  redis = await startRedis()
  probe = new Redis(redis.url)
  first = await replica()
  await first.ready()
  second = await replica()
  await second.ready()
})
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()])
  probe?.disconnect()
  await redis?.remove()
})

async function call(
  sandbox: SharedSandbox,
  path: string,
  session?: string,
  init: RequestInit & { key?: string } = {},
): Promise<Response> {
  const { key = 'sandbox-free-key', ...rest } = init
  const headers = new Headers(rest.headers)
  headers.set('authorization', `Bearer ${key}`)
  if (session !== undefined) headers.set('x-sandbox-session', session)
  const response = await sandbox.fetch(`${api}${path}`, { ...rest, headers })
  contract.check(rest.method ?? 'GET', `${api}${path}`, response)
  return response
}
const create = (sandbox: SharedSandbox, session: string | undefined, name: string, status?: string) =>
  call(sandbox, '/pets', session, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1, status }),
  })
const names = async (response: Response) => ((await response.json()) as Pet[]).map((pet) => `${pet.id}:${pet.name}`)
const clear = async () => {
  for (const session of (await first.sessions.list()).slice(1)) await first.sessions.delete(session.name)
  drops.length = 0
}

it('keeps a session one world across replicas: a create through one is seen through the other in that session only', async () => {
  const before = await names(await call(first, '/pets?limit=100'))
  const created = await create(first, 'worker-a', 'Only in a')
  expect(created.status).toBe(201)
  expect(created.headers.get('x-sandbox-session')).toBe('worker-a')
  expect((await created.json()).id).toBe(11)
  expect((await (await create(second, 'worker-b', 'Only in b')).json()).id).toBe(11)

  expect(await names(await call(second, '/pets?limit=100', 'worker-a'))).toEqual([...before, '11:Only in a'])
  expect(await names(await call(first, '/pets?limit=100', 'worker-b'))).toEqual([...before, '11:Only in b'])
  expect(await names(await call(second, '/pets?limit=100'))).toEqual(before)
  expect((await call(second, '/pets/11', 'worker-a')).status).toBe(200)
  expect((await call(second, '/pets/11')).status).toBe(404)
  expect((await second.session('worker-a').pets.get(11))?.name).toBe('Only in a')
  expect((await second.session('worker-a').state()).pets).toEqual({ count: 11, nextId: 12 })
  expect((await second.state()).pets).toEqual({ count: 10, nextId: 11 })
})

it('merges a session’s replaced pets into its listings exactly as in memory, on both replicas', async () => {
  const memory = createSandbox({ baseUrl: api, pets: 10 })
  const worker = first.session('merge')
  const alike = memory.session('merge')
  for (const session of [worker, alike]) {
    await session.pets.put({ id: 3, name: 'Three', categoryId: 1, status: 'sold' })
    await session.pets.put({ id: 1, name: 'One', categoryId: 1, status: 'pending' })
    await session.pets.create({ name: 'Eleven', categoryId: 2, status: 'sold' })
    await session.pets.put({ id: 30, name: 'Thirty', categoryId: 2, status: 'available' })
  }
  for (const path of [
    '/pets?limit=100',
    '/pets?limit=2',
    '/pets?status=sold&limit=100',
    '/pets?status=pending&limit=1',
    '/pets?status=available&limit=100',
  ]) {
    const expected = await (
      await memory.fetch(`${api}${path}`, {
        headers: { authorization: 'Bearer sandbox-free-key', 'x-sandbox-session': 'merge' },
      })
    ).json()
    expect(await (await call(second, path, 'merge')).json(), path).toEqual(expected)
  }
  expect(await second.session('merge').pets.all()).toEqual(alike.pets.all())
  expect((await second.session('merge').state()).pets).toEqual({ count: 12, nextId: 31 })
  expect((await call(second, '/pets/1')).status).toBe(200)
  expect((await (await call(second, '/pets/1')).json()).name).not.toBe('One')
  await second.session('merge').reset()
  expect(await first.session('merge').pets.all()).toEqual(await first.pets.all())
})

it('keeps a key’s quota in a session exact across replicas under a burst, apart from other sessions', async () => {
  await first.session('burst').clock.set('2030-01-01T00:00:00Z')
  const burst = await Promise.all(
    Array.from({ length: 80 }, (_, i) => call(i % 2 === 0 ? first : second, '/pets?limit=1', 'burst')),
  )
  expect(burst.filter((response) => response.status === 200)).toHaveLength(60)
  expect(burst.filter((response) => response.status === 429)).toHaveLength(20)
  expect((await call(second, '/pets?limit=1', 'other-quota')).status).toBe(200)
  expect((await first.session('burst').quota.get('sandbox-free-key')).minute.used).toBe(60)
  expect((await second.session('other-quota').quota.get('sandbox-free-key')).minute.used).toBe(1)
})

it('keeps each session its own clock, faults and scenarios, followed by the other replica', async () => {
  await first.session('late').clock.set('2030-12-06T00:00:00Z')
  expect((await call(second, '/pets/1', 'late')).status).toBe(410)
  expect((await call(second, '/pets/1', 'early')).status).toBe(200)
  expect((await call(second, '/pets/1')).status).toBe(200)

  await second.session('faulty').faults.set({ errorRate: 1, kinds: ['503'] })
  expect((await call(first, '/pets', 'faulty')).status).toBe(503)
  expect((await call(first, '/pets')).status).toBe(200)
  expect((await first.faults.get()).errorRate).toBe(0)

  await first.session('down').scenarios.set('sandbox-free-key', 'down')
  let down = await call(second, '/pets', 'down')
  // The other replica takes a change up with its next decision, or within a second.
  for (let attempt = 0; attempt < 50 && down.status !== 503; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    down = await call(second, '/pets', 'down')
  }
  expect(down.status).toBe(503)
  expect(down.headers.get('x-sandbox-scenario')).toBe('down')
  expect((await call(second, '/pets')).status).toBe(200)
  expect(second.scenarios.get('sandbox-free-key')).toBeUndefined()
})

it('resets one session from either replica and leaves the others as they were', async () => {
  await create(first, 'keep', 'Kept')
  await create(first, 'wipe', 'Wiped')
  await create(first, undefined, 'Default kept')
  await call(first, '/pets?limit=1', 'wipe')
  await second.session('wipe').reset()
  expect((await call(first, '/pets/11', 'wipe')).status).toBe(404)
  expect((await call(first, '/pets/11', 'keep')).status).toBe(200)
  expect((await call(first, '/pets/11')).status).toBe(200)
  expect((await (await create(first, 'wipe', 'Again')).json()).id).toBe(11)
  await first.reset()
  expect((await call(second, '/pets/11', 'keep')).status).toBe(200)
  expect((await call(second, '/pets/11')).status).toBe(404)
})

it('logs each session’s requests apart across replicas; a session’s reset forgets its own only', async () => {
  await call(first, '/pets?limit=1&from=default')
  await call(second, '/pets?limit=2&from=logged', 'logged')
  const until = async (read: () => Promise<unknown[]>, length: number) => {
    for (let attempt = 0; attempt < 100 && (await read()).length < length; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20))
    return read()
  }
  const logged = first.session('logged')
  const entries = (await until(() => logged.requests(), 1)) as Array<{ path: string; session?: string }>
  expect(entries.map((entry) => [entry.path, entry.session])).toEqual([['/v1/pets?limit=2&from=logged', 'logged']])
  expect(((await first.requests()) as Array<{ path: string }>).map((entry) => entry.path)).toContain(
    '/v1/pets?limit=1&from=default',
  )
  await logged.reset()
  expect(await second.session('logged').requests()).toEqual([])
  expect((await first.requests()).length).toBeGreaterThan(0)
})

it('tells a session’s watchers on one replica of its requests through the other, and of no other session’s', async () => {
  const heard: Array<[string, string | undefined]> = []
  const stop = first.session('heard').onRequest((entry) => heard.push([entry.path, entry.session]))
  try {
    // The replica subscribes on a connection of its own: requests go on until one is heard.
    for (let attempt = 0; attempt < 200 && heard.length === 0; attempt++) {
      await call(second, '/pets?limit=3&from=elsewhere')
      await call(second, '/pets?limit=3&from=other-session', 'not-heard')
      await call(second, `/pets?limit=3&attempt=${attempt}`, 'heard')
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(heard.length).toBeGreaterThan(0)
    expect(heard.every(([path, session]) => session === 'heard' && path.startsWith('/v1/pets?limit=3&attempt='))).toBe(
      true,
    )
  } finally {
    stop()
  }
})

it('forks a session through one replica, seen on the other; the fork’s reset returns to the source as it was', async () => {
  await clear()
  const source = first.session('source')
  await source.pets.create({ name: 'Made in source', categoryId: 1 })
  await source.clock.set('2031-01-01T00:00:00Z')
  await source.quota.set('sandbox-pro-key', { remaining: 7 })
  await source.faults.set({ errorRate: 0.25, kinds: ['500'], seed: 3 })
  const fork = await first.sessions.put('fork', { from: 'source' })
  expect(fork).toMatchObject({ name: 'fork', origin: 'fork', from: 'source', pets: { count: 11, nextId: 12 } })
  const forked = second.session('fork')
  expect((await forked.pets.get(11))?.name).toBe('Made in source')
  expect((await forked.quota.get('sandbox-pro-key')).remaining).toBe(7)
  expect(forked.clock.now()).toBeGreaterThanOrEqual(Date.parse('2031-01-01T00:00:00Z'))
  expect((await forked.faults.get()).errorRate).toBe(0.25)
  await forked.pets.create({ name: 'Made in fork', categoryId: 1 })
  await forked.clock.advance(86_400_000)
  expect(await source.pets.get(12)).toBeUndefined()
  await forked.reset({ clock: true })
  expect((await forked.pets.all()).map((pet) => pet.name).at(-1)).toBe('Made in source')
  expect(await forked.pets.get(12)).toBeUndefined()
  expect(forked.clock.now()).toBeLessThan(Date.parse('2031-01-01T00:01:00Z'))
  expect((await forked.quota.get('sandbox-pro-key')).remaining).toBe(7)

  const listed = await second.sessions.list()
  expect(listed.map((session) => [session.name, session.origin])).toEqual([
    ['default', 'start-up'],
    ['fork', 'fork'],
    ['source', 'start-up'],
  ])
  await expect(second.sessions.put('other', { from: 'nowhere' })).rejects.toThrow('from: no session "nowhere"')
  expect(await second.sessions.delete('fork')).toBe(true)
  expect(await first.sessions.delete('fork')).toBe(false)
  expect((await first.sessions.list()).map((session) => session.name)).toEqual(['default', 'source'])
})

it('drops the least recently used session beyond max, and one idle by the default session’s clock, across replicas', async () => {
  await clear()
  await first.clock.set('2030-01-01T00:00:00Z')
  // The other replica follows the clock a moment later; until then it would stamp its sessions' use in 2026.
  await expect
    .poll(() => second.clock.now(), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00Z'))
  // Redis ranks uses by the millisecond, a tie by name: each use comes in a millisecond of its own.
  const nextMs = async () => {
    const now = Date.now()
    await expect.poll(() => Date.now()).toBeGreaterThan(now)
  }
  for (const [index, name] of ['s1', 's2', 's3'].entries()) {
    await nextMs()
    await call(index % 2 === 0 ? first : second, '/pets?limit=1', name)
  }
  await nextMs()
  await call(second, '/pets?limit=1', 's1')
  await nextMs()
  await call(first, '/pets?limit=1', 's4')
  expect(drops).toEqual(['s2:least-recently-used'])
  expect((await second.sessions.list()).map((session) => session.name)).toEqual(['default', 's4', 's1', 's3'])
  // Another session's clock does not expire anything; the default session's does.
  await first.session('s3').clock.advance(3_600_000)
  expect(await second.sessions.list()).toHaveLength(4)
  await second.clock.advance(61_000)
  // The first replica follows the moved clock a moment later, as it followed the set one.
  const moved = second.clock.now()
  await expect.poll(() => first.clock.now(), { timeout: 10_000 }).toBeGreaterThanOrEqual(moved)
  await call(first, '/pets?limit=1', 's4')
  expect((await first.sessions.list()).map((session) => session.name)).toEqual(['default', 's4'])
  // s4 too was idle for 61 s when the request came: it starts over, as in memory.
  expect(drops.slice(1).sort()).toEqual(['s1:idle', 's3:idle', 's4:idle'])
})

it('bounds the pets of every session together by maxPets, and gives a reset or deleted session’s pets back', async () => {
  await clear()
  await first.reset()
  for (const name of ['a1', 'a2', 'a3']) expect((await create(first, 'pool-a', name)).status).toBe(201)
  for (const name of ['b1', 'b2']) expect((await create(second, 'pool-b', name)).status).toBe(201)
  expect((await create(second, undefined, 'd1')).status).toBe(201)
  const full = await create(first, 'pool-b', 'one too many')
  expect(full.status).toBe(507)
  expect((await full.json()).code).toBe('storage_full')
  await second.session('pool-a').reset()
  expect((await create(first, 'pool-b', 'fits again')).status).toBe(201)
  await first.sessions.delete('pool-b')
  expect((await create(second, 'pool-a', 'and again')).status).toBe(201)
})

it('gives a named session’s keys a TTL, so Redis frees an abandoned session by itself', async () => {
  await clear()
  await create(first, 'ttl', 'Abandoned')
  const keys = await probe.keys(`${PREFIX}s:ttl*`)
  expect(keys.length).toBeGreaterThan(0)
  for (const key of keys) {
    const ttl = await probe.pttl(key)
    expect(ttl, key).toBeGreaterThan(0)
    expect(ttl, key).toBeLessThanOrEqual(120_000)
  }
  for (const key of await probe.keys(`${PREFIX}s:default*`)) expect(await probe.pttl(key), key).toBe(-1)
})

it('frees an abandoned session’s keys by their TTL with no process acting, and its pets leave maxPets', async () => {
  const brief = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'brief:' }),
    baseUrl: api,
    pets: 3,
    maxPets: 4,
    sessions: { idleMs: 250 },
  })
  try {
    await brief.ready()
    expect((await create(brief, 'abandoned', 'Left behind')).status).toBe(201)
    expect(await probe.keys('brief:s:abandoned*')).not.toEqual([])
    // Nothing runs against the sandbox meanwhile: Redis lets the keys go by itself.
    for (let attempt = 0; attempt < 400 && (await probe.keys('brief:s:abandoned*')).length > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(await probe.keys('brief:s:abandoned*')).toEqual([])
    expect(await probe.keys('brief:base:*')).not.toEqual([])
    // The next use of the registry lets the session go, and its pet leaves the maxPets count.
    expect((await create(brief, 'next', 'Fits')).status).toBe(201)
    expect((await brief.sessions.list()).map((session) => session.name)).toEqual(['default', 'next'])
  } finally {
    await brief.close()
  }
})

it("carries a session's settings as one value across replicas: a capsule's seed, faults and scenarios, each set by itself", async () => {
  await clear()
  const source = first.session('settings-source')
  await source.faults.set({ errorRate: 0.125, seed: 9 })
  await source.scenarios.set('sandbox-free-key', 'sunset')
  // Two of its pets: all of them would pass maxPets beside the start-up ones (D23).
  const whole = await source.capsule()
  const capsule = { ...whole, seed: 77, pets: whole.pets.slice(0, 2) }
  await first.sessions.put('settings-restored', { capsule })
  const restored = await second.session('settings-restored').capsule()
  expect({ seed: restored.seed, faults: restored.faults, scenarios: restored.scenarios }).toEqual({
    seed: 77,
    faults: capsule.faults,
    scenarios: { 'sandbox-free-key': 'sunset' },
  })
  // One setting changed through each replica: neither loses the other's.
  await second.session('settings-restored').faults.set({ errorRate: 0.5 })
  await first.session('settings-restored').scenarios.set('sandbox-pro-key', 'down')
  const live = await first.session('settings-restored').capsule()
  expect(live.faults.errorRate).toBe(0.5)
  expect(live.scenarios).toEqual({ 'sandbox-free-key': 'sunset', 'sandbox-pro-key': 'down' })
  // A reset through the other replica puts the scenarios back to the capsule's and keeps the seed.
  await second.session('settings-restored').reset()
  const reset = await first.session('settings-restored').capsule()
  expect({ seed: reset.seed, scenarios: reset.scenarios }).toEqual({
    seed: 77,
    scenarios: { 'sandbox-free-key': 'sunset' },
  })
  // The settings stay in their session.
  expect((await second.session('settings-other').capsule()).faults.errorRate).toBe(0)
  expect(second.faults.get().errorRate).toBe(0)
})

it("keeps a session's weather in its session across replicas, and in its capsule", async () => {
  await clear()
  const weather = {
    latency: { p50: 80, p99: 900 },
    errorRate: 0.2,
    burst: 5,
    operations: { getPet: { latency: { p50: 5, p99: 40 }, burst: 2 } },
  }
  await first.session('weather-stormy').faults.set(weather)
  // The other replica takes it up with its next decision in the session.
  await call(second, '/pets/1', 'weather-stormy')
  expect(second.session('weather-stormy').faults.get()).toMatchObject(weather)
  expect((await second.session('weather-stormy').capsule()).faults).toMatchObject(weather)
  await call(second, '/pets/1', 'weather-calm')
  expect(second.session('weather-calm').faults.get().burst).toBeUndefined()
  expect(second.faults.get().burst).toBeUndefined()
})
