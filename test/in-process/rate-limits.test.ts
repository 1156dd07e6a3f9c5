import { beforeEach, expect, it } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

// 2030-01-01T09:30:15Z; each test starts there (the sandbox clock follows `time`).
const START = Date.UTC(2030, 0, 1, 9, 30, 15)
let time = START
const { api, sandbox, contract } = useInProcessSandbox({
  now: () => time,
  banAfter: 2,
  banSeconds: 300,
  keys: [
    { key: 'free-key-one', plan: 'free' },
    { key: 'free-key-two', plan: 'free' },
    { key: 'pro-key-0001', plan: 'pro' },
    { key: 'business-key', plan: 'business' },
    { key: 'enterprise-01', plan: 'enterprise', perMinute: 3, perDay: 4 },
  ],
})

beforeEach(() => {
  time = START
  sandbox.clock.set(START)
})

async function burst(count: number, key: string, path = '/pets?limit=1') {
  const responses: Response[] = []
  for (let i = 0; i < count; i++) responses.push(await api(path, { key }))
  return responses
}

it('gives a Free key 60 answers in a minute, then 429 with Retry-After and Remaining 0', async () => {
  const admitted = await burst(60, 'free-key-one')
  expect(admitted.map((response) => response.status)).toEqual(Array(60).fill(200))
  expect(admitted[59]!.headers.get('x-ratelimit-remaining')).toBe('0')
  const refused = await api('/pets', { key: 'free-key-one' })
  expect(refused.status).toBe(429)
  expect(refused.headers.get('retry-after')).toBe('45')
  expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
  expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 0, 1, 9, 31) / 1000))
  expect(await refused.json()).toEqual({
    code: 'rate_limited',
    message: 'Rate limit of 60 requests exceeded; retry in 45 s',
    status: 429,
  })
})

it('applies the plan of each key', async () => {
  const limits = await Promise.all(
    ['free-key-one', 'pro-key-0001', 'business-key'].map(async (key) =>
      (await api('/pets', { key })).headers.get('x-ratelimit-limit'),
    ),
  )
  expect(limits).toEqual(['60', '300', '1000'])
})

it('applies Enterprise custom limits, per minute and per day', async () => {
  const minute = await burst(4, 'enterprise-01')
  expect(minute.map((response) => response.status)).toEqual([200, 200, 200, 429])
  time += 60_000
  const nextMinute = await burst(2, 'enterprise-01')
  // The day allows 4: one left after the first minute's 3.
  expect(nextMinute.map((response) => response.status)).toEqual([200, 429])
  expect(nextMinute[0]!.headers.get('x-ratelimit-limit')).toBe('4')
  expect(nextMinute[1]!.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 0, 2) / 1000))
})

it('never lets two keys share a counter', async () => {
  await burst(60, 'free-key-one')
  expect((await api('/pets', { key: 'free-key-one' })).status).toBe(429)
  const other = await api('/pets', { key: 'free-key-two' })
  expect(other.status).toBe(200)
  expect(other.headers.get('x-ratelimit-remaining')).toBe('59')
})

it('starts a ban after banAfter refused requests and ends it after banSeconds', async () => {
  await burst(60, 'free-key-one')
  const refusals = await burst(2, 'free-key-one')
  expect(refusals.map((response) => response.status)).toEqual([429, 429])
  const banned = await api('/pets', { key: 'free-key-one' })
  expect(banned.status).toBe(429)
  expect(((await banned.json()) as { code: string }).code).toBe('temporarily_banned')
  expect(banned.headers.get('retry-after')).toBe('300')
  expect(banned.headers.get('x-ratelimit-reset')).toBe(String(time / 1000 + 300))

  time += 120_000
  const stillBanned = await api('/pets', { key: 'free-key-one' })
  expect(stillBanned.headers.get('retry-after')).toBe('180')
  time += 180_000
  const free = await api('/pets', { key: 'free-key-one' })
  expect(free.status).toBe(200)
})

it('agrees with the clock when the clock is moved through the sandbox', async () => {
  sandbox.clock.set('2030-06-01T12:00:59Z')
  const response = await api('/pets', { key: 'free-key-one' })
  expect(response.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 5, 1, 12, 1) / 1000))
  sandbox.clock.advance(1_000)
  const nextMinute = await api('/pets', { key: 'free-key-one' })
  expect(nextMinute.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 5, 1, 12, 2) / 1000))
  expect(nextMinute.headers.get('x-ratelimit-remaining')).toBe('59')
})

it('limits requests without a valid key per client address, with the Free limits', async () => {
  const anonymous = await burst(60, 'no-such-key')
  expect(anonymous.map((response) => response.status)).toEqual(Array(60).fill(401))
  expect(anonymous[0]!.headers.get('x-ratelimit-limit')).toBe('60')
  const refused = await api('/pets', { key: 'still-wrong' })
  expect(refused.status).toBe(429)
  // Another address has its own bucket.
  const elsewhere = await api('/pets', { key: null, headers: { 'x-sandbox-client-address': '203.0.113.9' } })
  expect(elsewhere.status).toBe(401)
  // A valid key is not held back by its address's spent bucket.
  expect((await api('/pets', { key: 'pro-key-0001' })).status).toBe(200)
})

it('admits exactly the remaining quota to concurrent requests', async () => {
  sandbox.quota.set('pro-key-0001', { remaining: 17 })
  const responses = await Promise.all(Array.from({ length: 40 }, () => api('/pets?limit=1', { key: 'pro-key-0001' })))
  const statuses = responses.map((response) => response.status)
  expect(statuses.filter((status) => status === 200)).toHaveLength(17)
  expect(statuses.filter((status) => status === 429)).toHaveLength(23)
})

it('sets and reads a key quota without looping', async () => {
  sandbox.quota.set('free-key-two', { remaining: 1 })
  expect((await api('/pets', { key: 'free-key-two' })).status).toBe(200)
  expect((await api('/pets', { key: 'free-key-two' })).status).toBe(429)
  expect(sandbox.quota.get('free-key-two')).toMatchObject({
    minute: { limit: 60, remaining: 0 },
    refused: 1,
    bannedUntil: undefined,
  })
  sandbox.quota.set('free-key-two', { banned: true })
  expect(sandbox.quota.get('free-key-two').bannedUntil).toBe(time + 300_000)
})

it('clears counters and bans on reset', async () => {
  sandbox.quota.set('free-key-one', { banned: true })
  expect((await api('/pets', { key: 'free-key-one' })).status).toBe(429)
  await sandbox.reset()
  const after = await api('/pets', { key: 'free-key-one' })
  expect(after.status).toBe(200)
  expect(after.headers.get('x-ratelimit-remaining')).toBe('59')
})

it('carries the three headers on every status, checked for every response of this file', async () => {
  // The contract checker asserts X-RateLimit-* on each response; this proves it saw them all.
  const before = contract.count()
  const statuses = new Set<number>()
  for (const [path, init] of [
    ['/pets', {}],
    [
      '/pets',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' },
    ],
    ['/pets?limit=0', {}],
    ['/pets', { key: null }],
    ['/pets/999999', {}],
    ['/pets', { method: 'DELETE' }],
    ['/pets', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
    ['/store', {}],
  ] as const) {
    statuses.add((await api(path, { key: 'business-key', ...(init as RequestInit & { key?: null }) })).status)
  }
  expect([...statuses].sort()).toEqual([200, 201, 400, 401, 404, 405, 415, 501])
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(contract.count() - before).toBe(8)
})
