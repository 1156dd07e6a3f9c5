import { beforeEach, expect, it } from 'vitest'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Two CLI processes on one Redis answer as one sandbox (docs/running-for-a-team.md#several-replicas-one-redis).
const { call, admin } = useRedisReplicas(2, ['--pets', '20', '--ban-after', '3', '--ban-seconds', '600'])
const FREE = 'sandbox-free-key'
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

beforeEach(async () => {
  expect((await admin(1, '/reset', { method: 'POST' })).status).toBe(200)
  // The top of a minute, so no window rolls over while a test counts.
  expect((await admin(0, '/clock', { method: 'POST', json: { set: '2030-01-01T00:00:00Z' } })).status).toBe(200)
})

it('gives a Free key exactly 60 answers a minute over both replicas, counting down across them', async () => {
  const remaining: string[] = []
  for (let i = 0; i < 60; i++) {
    const response = await call(i % 2, '/pets?limit=1', { key: FREE })
    expect(response.status).toBe(200)
    remaining.push(response.headers.get('x-ratelimit-remaining')!)
  }
  expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => String(59 - i)))
  for (const replica of [0, 1]) {
    const refused = await call(replica, '/pets?limit=1', { key: FREE })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await refused.json()).code).toBe('rate_limited')
  }
})

it('admits a concurrent burst spread over both replicas exactly up to the quota', async () => {
  const responses = await Promise.all(
    Array.from({ length: 150 }, (_, i) => call(i % 2, '/pets?limit=1', { key: 'sandbox-pro-key' })),
  )
  // Pro: 300 a minute; spend 150 first, then burst 200 more: exactly 150 of those are admitted.
  expect(responses.every((response) => response.status === 200)).toBe(true)
  const burst = await Promise.all(
    Array.from({ length: 200 }, (_, i) => call(i % 2, '/pets?limit=1', { key: 'sandbox-pro-key' })),
  )
  expect(burst.filter((response) => response.status === 200)).toHaveLength(150)
  expect(burst.filter((response) => response.status === 429)).toHaveLength(50)
})

it('bans a key over both replicas once its refusals pass --ban-after, wherever they were refused', async () => {
  expect((await admin(0, `/keys/${FREE}`, { method: 'PATCH', json: { remaining: 0 } })).status).toBe(200)
  const codes: string[] = []
  for (let i = 0; i < 4; i++) codes.push((await (await call(i % 2, '/pets', { key: FREE })).json()).code)
  expect(codes).toEqual(['rate_limited', 'rate_limited', 'rate_limited', 'temporarily_banned'])
  for (const replica of [0, 1]) {
    const banned = await call(replica, '/pets', { key: FREE })
    expect((await banned.json()).code).toBe('temporarily_banned')
    expect(Number(banned.headers.get('retry-after'))).toBeGreaterThan(590)
  }
  const quota = await (await admin(1, `/keys/${FREE}`)).json()
  expect(quota.quota.banned).toBe(true)
})

it('shows a pet created on one replica on the other, with ids ascending across both', async () => {
  const first = await (await call(0, '/pets', json({ name: 'Biscuit', categoryId: 2, status: 'pending' }))).json()
  const second = await (await call(1, '/pets', json({ name: 'Crumb', categoryId: 3 }))).json()
  expect([first.id, second.id]).toEqual([21, 22])
  const read = await call(1, `/pets/${first.id}`)
  expect(read.status).toBe(200)
  expect(await read.json()).toEqual({ id: 21, name: 'Biscuit', categoryId: 2, status: 'pending' })
  const pending = await (await call(0, '/pets?status=pending&limit=100')).json()
  expect(pending.map((pet: { id: number }) => pet.id)).toContain(21)
  expect(pending.every((pet: { status: string }) => pet.status === 'pending')).toBe(true)
  const state = await (await admin(0, '/state')).json()
  expect(state.pets).toEqual({ count: 22, nextId: 23 })
})

it('moves the clock of both replicas from either', async () => {
  expect((await call(1, '/pets/1')).status).toBe(200)
  await admin(0, '/clock', { method: 'POST', json: { set: '2030-12-06T00:00:00Z' } })
  // getPet's sunset is 2030-12-05: gone on the other replica too.
  expect((await call(1, '/pets/1')).status).toBe(410)
  expect((await (await admin(1, '/clock')).json()).now).toMatch(/^2030-12-06T00:00/)
  await admin(1, '/clock', { method: 'POST', json: { advanceMs: -86_400_000 * 2 } })
  expect((await (await admin(0, '/clock')).json()).now).toMatch(/^2030-12-04T00:00/)
  expect((await call(0, '/pets/1')).status).toBe(200)
})

it('resets both replicas from either: pets, ids and counters', async () => {
  const created = await (await call(0, '/pets', json({ name: 'Gone soon', categoryId: 1 }))).json()
  await call(0, '/pets?limit=1', { key: FREE })
  expect((await admin(1, '/reset', { method: 'POST' })).status).toBe(200)
  expect((await call(0, `/pets/${created.id}`)).status).toBe(404)
  const fresh = await call(1, '/pets?limit=1', { key: FREE })
  expect(fresh.headers.get('x-ratelimit-remaining')).toBe('59')
  expect((await (await call(1, '/pets', json({ name: 'After', categoryId: 1 }))).json()).id).toBe(21)
})

it('shares quotas set, faults set and the request log through the admin API', async () => {
  await admin(0, '/keys/sandbox-pro-key', { method: 'PATCH', json: { remaining: 7 } })
  const after = await call(1, '/pets?limit=1', { key: 'sandbox-pro-key' })
  expect(after.headers.get('x-ratelimit-remaining')).toBe('6')

  expect((await admin(1, '/faults', { method: 'PUT', json: { errorRate: 1, kinds: ['503'] } })).status).toBe(200)
  const faulted = await call(0, '/pets?limit=1')
  expect(faulted.status).toBe(503)
  expect((await (await admin(0, '/faults')).json()).errorRate).toBe(1)
  await admin(0, '/faults', { method: 'PUT', json: {} })
  expect((await call(1, '/pets?limit=1')).status).toBe(200)

  await call(0, '/pets?limit=2&from=replica-0')
  // Each process sends its log lines in batches, a moment after they were answered.
  let paths: string[] = []
  for (let attempt = 0; attempt < 50 && !paths.includes('/v1/pets?limit=2&from=replica-0'); attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20))
    const { requests } = await (await admin(1, '/requests?limit=5')).json()
    paths = requests.map((entry: { path: string }) => entry.path)
  }
  expect(paths).toContain('/v1/pets?limit=2&from=replica-0')
})

it('empties the request log of both replicas from either, as on one process', async () => {
  await call(0, '/pets?limit=1&from=before-reset-0')
  await call(1, '/pets?limit=1&from=before-reset-1')
  const paths = async (replica: number) =>
    ((await (await admin(replica, '/requests')).json()).requests as Array<{ path: string }>).map((entry) => entry.path)
  // Each process sends its log lines in batches, a moment after they were answered.
  for (let attempt = 0; attempt < 50 && (await paths(1)).length < 2; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20))
  expect(await paths(1)).toEqual(['/v1/pets?limit=1&from=before-reset-0', '/v1/pets?limit=1&from=before-reset-1'])

  expect((await admin(0, '/reset', { method: 'POST' })).status).toBe(200)
  expect(await paths(1)).toEqual([])
  expect(await paths(0)).toEqual([])
  await call(1, '/pets?limit=1&from=after-reset')
  for (let attempt = 0; attempt < 50 && (await paths(0)).length < 1; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20))
  expect(await paths(0)).toEqual(['/v1/pets?limit=1&from=after-reset'])
})

it('starts the fault draws of both replicas over on a reset through either, as on one process', async () => {
  expect((await admin(0, '/faults', { method: 'PUT', json: { errorRate: 0.5, kinds: ['503'], seed: 9 } })).status).toBe(
    200,
  )
  const run = async () => {
    const statuses: number[] = []
    for (let i = 0; i < 24; i++) statuses.push((await call(1, '/pets?limit=1')).status)
    return statuses
  }
  try {
    const before = await run()
    expect(before).toContain(503)
    expect(before).toContain(200)
    // The reset goes through the replica that is not drawing.
    expect((await admin(0, '/reset', { method: 'POST' })).status).toBe(200)
    expect(await run()).toEqual(before)
  } finally {
    // A reset keeps the faults: the next test must not meet them.
    await admin(0, '/faults', { method: 'PUT', json: {} })
  }
})
