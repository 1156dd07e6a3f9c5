import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { beforeAll, expect, it } from 'vitest'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'
import { ADMIN_TOKEN, useRedisReplicas } from '../support/use-redis-replicas.js'

// Two CLI replicas on one Redis serve each session as one world (docs/decisions.md#d34): what one
// replica does in a session, the other shows in that session and in no other.
const { call, admin, redis, startReplica } = useRedisReplicas(2, ['--pets', '10'])
const json = (body: unknown, session?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(session === undefined ? {} : { 'x-sandbox-session': session }) },
  body: JSON.stringify(body),
})
const inSession = (session: string, init: RequestInit & { key?: string } = {}) => ({
  ...init,
  headers: { ...init.headers, 'x-sandbox-session': session },
})
const ids = async (response: Response) => ((await response.json()) as Array<{ id: number }>).map((pet) => pet.id)
/** An admin call to replica `index` in `session`. */
const adminIn = (index: number, session: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
  admin(index, path, { ...init, headers: { ...init.headers, 'x-sandbox-session': session } })

beforeAll(async () => {
  // The top of a minute, so no window rolls over while a test counts.
  expect((await admin(0, '/clock', { method: 'POST', json: { set: '2030-01-01T00:00:00Z' } })).status).toBe(200)
})

it('shows a pet created in a session through one replica on the other, in that session only', async () => {
  const created = await call(0, '/pets', json({ name: 'Worker pet', categoryId: 2, status: 'sold' }, 'worker-1'))
  expect(created.status).toBe(201)
  expect(created.headers.get('x-sandbox-session')).toBe('worker-1')
  const pet = await created.json()
  expect(pet.id).toBe(11)
  const read = await call(1, '/pets/11', inSession('worker-1'))
  expect(read.status).toBe(200)
  expect(read.headers.get('x-sandbox-session')).toBe('worker-1')
  expect(await read.json()).toEqual(pet)
  expect(await ids(await call(1, '/pets?status=sold&limit=100', inSession('worker-1')))).toContain(11)
  // Not in another session, nor in the default one.
  expect((await call(1, '/pets/11', inSession('worker-2'))).status).toBe(404)
  expect((await call(0, '/pets/11')).status).toBe(404)
  expect(await ids(await call(1, '/pets?limit=100', inSession('worker-2')))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  // Ids go on across replicas within the session; another session has its own.
  expect((await (await call(1, '/pets', json({ name: 'Next', categoryId: 1 }, 'worker-1'))).json()).id).toBe(12)
  expect((await (await call(0, '/pets', json({ name: 'Other', categoryId: 1 }, 'worker-2'))).json()).id).toBe(11)
})

it('runs 4 workers × 15 tests at once over two replicas, each in its own session with a reset per test: no collisions', async () => {
  const startUp = await ids(await call(0, '/pets?limit=100', inSession('parallel-probe')))
  const collisions: string[] = []
  const worker = async (index: number) => {
    const session = `parallel-${index}`
    for (let test = 0; test < 15; test++) {
      // Every step through either replica, turn by turn.
      const through = (step: number) => (index + test + step) % 2
      expect((await adminIn(through(0), session, '/reset', { method: 'POST' })).status).toBe(200)
      const mine = [`w${index}-t${test}-a`, `w${index}-t${test}-b`]
      const made: number[] = []
      for (const [step, name] of mine.entries()) {
        const created = await call(through(step + 1), '/pets', json({ name, categoryId: 1 }, session))
        if (created.status !== 201) collisions.push(`${session} test ${test}: create answered ${created.status}`)
        made.push((await created.json()).id)
      }
      if (made.join() !== '11,12') collisions.push(`${session} test ${test}: ids ${made.join()}`)
      const listed = (await (await call(through(3), '/pets?limit=100', inSession(session))).json()) as Array<{
        id: number
        name: string
      }>
      if (listed.map((pet) => pet.id).join() !== [...startUp, ...made].join())
        collisions.push(`${session} test ${test}: listed ${listed.map((pet) => pet.id).join()}`)
      if (
        listed
          .slice(startUp.length)
          .map((pet) => pet.name)
          .join() !== mine.join()
      )
        collisions.push(`${session} test ${test}: saw other pets`)
    }
  }
  await Promise.all([0, 1, 2, 3].map(worker))
  expect(collisions).toEqual([])
  expect(await ids(await call(1, '/pets?limit=100', inSession('parallel-probe')))).toEqual(startUp)
}, 120_000)

it('keeps a key’s quota in a session exact across replicas under a concurrent burst', async () => {
  const burst = await Promise.all(
    Array.from({ length: 90 }, (_, i) => call(i % 2, '/pets?limit=1', inSession('burst', { key: 'sandbox-free-key' }))),
  )
  expect(burst.filter((response) => response.status === 200)).toHaveLength(60)
  expect(burst.filter((response) => response.status === 429)).toHaveLength(30)
  // The same key in another session, and in the default one, has its whole minute.
  for (const init of [inSession('calm', { key: 'sandbox-free-key' }), { key: 'sandbox-free-key' }]) {
    const fresh = await call(1, '/pets?limit=1', init)
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('59')
  }
})

it('resets the default session from either replica and leaves the named sessions as they were', async () => {
  await call(0, '/pets', json({ name: 'Kept in a session', categoryId: 1 }, 'kept'))
  await call(0, '/pets', json({ name: 'Gone from the default', categoryId: 1 }))
  expect((await admin(1, '/reset', { method: 'POST' })).status).toBe(200)
  expect((await call(0, '/pets/11')).status).toBe(404)
  expect((await call(0, '/pets/11', inSession('kept'))).status).toBe(200)
})

it('refuses, in one line naming what to do, a Redis holding a state in the older key layout', async () => {
  const client = new Redis(redis().url)
  // What an earlier version wrote: its meta hash had the generation in `gen`, and no layout.
  await client.hset('old-layout:meta', 'gen', '1', 'seed', '1', 'pets', '10', 'nextId', '11')
  client.disconnect()
  const refused = await runCli([
    'start',
    '--port',
    '0',
    '--log',
    'off',
    '--redis',
    redis().url,
    '--redis-prefix',
    'old-layout:',
  ])
  expect(refused.code).toBe(1)
  expect(refused.stderr.trim().split('\n')).toEqual([
    `error: Redis at ${redis().url} (prefix old-layout:) holds a state written by an older petstore-sandbox, in a key layout this one does not read: start with another --redis-prefix, or delete the keys under old-layout: (every pet, session and runtime key stored there goes)`,
  ])
})

it('keeps each session its own clock, faults and scenario, set through one replica and followed by the other', async () => {
  expect((await adminIn(0, 'late', '/clock', { method: 'POST', json: { set: '2030-12-06T00:00:00Z' } })).status).toBe(
    200,
  )
  expect((await call(1, '/pets/1', inSession('late'))).status).toBe(410)
  expect((await call(1, '/pets/1', inSession('early'))).status).toBe(200)
  expect((await call(1, '/pets/1')).status).toBe(200)
  expect((await (await adminIn(1, 'late', '/clock')).json()).now.startsWith('2030-12-06')).toBe(true)

  expect(
    (await adminIn(1, 'faulty', '/faults', { method: 'PUT', json: { errorRate: 1, kinds: ['503'] } })).status,
  ).toBe(200)
  const faulted = await call(0, '/pets', inSession('faulty'))
  expect(faulted.status).toBe(503)
  expect(faulted.headers.get('x-sandbox-fault')).toBe('error=503')
  expect((await call(0, '/pets', inSession('calm'))).status).toBe(200)
  expect((await (await admin(0, '/faults')).json()).errorRate).toBe(0)

  expect(
    (await adminIn(0, 'down', '/keys/sandbox-pro-key/scenario', { method: 'PUT', json: { name: 'down' } })).status,
  ).toBe(200)
  // The other replica takes the change up with its next decision in the session, or within a second.
  await expect
    .poll(async () => (await call(1, '/pets', inSession('down', { key: 'sandbox-pro-key' }))).status)
    .toBe(503)
  expect((await call(1, '/pets', inSession('up', { key: 'sandbox-pro-key' }))).status).toBe(200)
  const state = await (await adminIn(1, 'down', '/state')).json()
  expect(state.keys.find((key: { key: string }) => key.key === 'sandbox-pro-key').scenario).toBe('down')
})

it('resets one session through either replica, its pets, quota and log entries, and leaves the others', async () => {
  await call(0, '/pets', json({ name: 'Wiped', categoryId: 1 }, 'wipe'))
  await call(0, '/pets', json({ name: 'Kept', categoryId: 1 }, 'keep'))
  await call(1, '/pets?limit=1&from=wipe', inSession('wipe', { key: 'sandbox-free-key' }))
  // Each replica writes its entries to the shared log a moment after it answers: wait for both.
  const beforeReset = (requests: Array<{ method: string; path: string }>) =>
    requests.filter((entry) => entry.method === 'POST' || entry.path.includes('from=wipe'))
  await expect
    .poll(async () => beforeReset((await (await adminIn(0, 'wipe', '/requests')).json()).requests).length)
    .toBe(2)
  expect((await adminIn(1, 'wipe', '/reset', { method: 'POST' })).status).toBe(200)
  expect((await call(0, '/pets/11', inSession('wipe'))).status).toBe(404)
  expect((await call(0, '/pets/11', inSession('keep'))).status).toBe(200)
  expect(beforeReset((await (await adminIn(0, 'wipe', '/requests')).json()).requests)).toEqual([])
  const fresh = await call(0, '/pets?limit=1', inSession('wipe', { key: 'sandbox-free-key' }))
  expect(fresh.headers.get('x-ratelimit-remaining')).toBe('59')
})

it('forks a session and restores a capsule through one replica, each seen on the other', async () => {
  await call(0, '/pets', json({ name: 'Made in source', categoryId: 3, status: 'pending' }, 'source'))
  await adminIn(0, 'source', '/keys/sandbox-pro-key', { method: 'PATCH', json: { remaining: 7 } })
  const forked = await admin(1, '/sessions/forked', { method: 'PUT', json: { from: 'source' } })
  expect(forked.status).toBe(200)
  expect(await forked.json()).toMatchObject({
    name: 'forked',
    origin: 'fork',
    from: 'source',
    pets: { count: 11, nextId: 12 },
  })
  expect((await (await call(0, '/pets/11', inSession('forked'))).json()).name).toBe('Made in source')
  expect(
    (await call(0, '/pets?limit=1', inSession('forked', { key: 'sandbox-pro-key' }))).headers.get(
      'x-ratelimit-remaining',
    ),
  ).toBe('6')
  await call(0, '/pets', json({ name: 'Only in the fork', categoryId: 1 }, 'forked'))
  expect((await call(1, '/pets/12', inSession('source'))).status).toBe(404)
  // The fork's reset, through the other replica, returns to the source as it was.
  expect((await adminIn(1, 'forked', '/reset', { method: 'POST' })).status).toBe(200)
  expect((await call(0, '/pets/12', inSession('forked'))).status).toBe(404)
  expect((await call(0, '/pets/11', inSession('forked'))).status).toBe(200)

  const capsule = await (await admin(1, '/sessions/source/capsule')).json()
  expect((await admin(0, '/sessions/restored', { method: 'PUT', json: { capsule } })).status).toBe(200)
  for (const path of ['/pets?limit=100', '/pets/11', '/pets?status=pending&limit=100']) {
    const [restored, original] = [await call(1, path, inSession('restored')), await call(1, path, inSession('source'))]
    expect(restored.status, path).toBe(original.status)
    expect(await restored.json(), path).toEqual(await original.json())
  }
  expect((await (await admin(1, '/sessions/restored')).json()).origin).toBe('capsule')
  expect((await admin(0, '/sessions/restored', { method: 'DELETE' })).status).toBe(200)
  expect((await admin(1, '/sessions/restored')).status).toBe(404)
  expect((await call(1, '/pets/11', inSession('restored'))).status).toBe(404)
})

it('bounds the sessions of both replicas by --max-sessions and drops an idle one by the default session’s clock, printed by the replica that did it', async () => {
  const args = ['--redis-prefix', 'bounded:', '--max-sessions', '2', '--session-idle', '90s']
  const replicas: CliProcess[] = [await startReplica(args), await startReplica(args)]
  const on = (index: number, session: string) =>
    fetch(`${replicas[index]!.url}/pets?limit=1`, {
      headers: { authorization: 'Bearer sandbox-free-key', 'x-sandbox-session': session },
    })
  const bounded = async (index: number, path: string, init: RequestInit = {}) =>
    fetch(`${replicas[index]!.url.replace(/\/v1$/, '')}/__sandbox${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...init.headers },
    })
  const listed = async (index: number) =>
    ((await (await bounded(index, '/sessions')).json()).sessions as Array<{ name: string }>).map(
      (session) => session.name,
    )
  try {
    expect(replicas[0]!.output()).toContain(
      'Sessions: X-Sandbox-Session, up to 2, idle after 90s, shared by the replicas',
    )
    for (const [index, session] of [
      [0, 'one'],
      [1, 'two'],
      [0, 'one'],
      [1, 'three'],
    ] as const) {
      expect((await on(index, session)).status).toBe(200)
    }
    expect(await listed(0)).toEqual(['default', 'three', 'one'])
    await expect
      .poll(() => replicas[1]!.output())
      .toContain('Session two dropped: least recently used, over --max-sessions 2')
    expect(replicas[0]!.output()).not.toContain('Session two dropped')
    // A session's own clock expires nothing; the default session's, moved through either replica, does.
    await bounded(0, '/clock', {
      method: 'POST',
      headers: { 'x-sandbox-session': 'one' },
      body: JSON.stringify({ advanceMs: 3_600_000 }),
    })
    expect(await listed(1)).toEqual(['default', 'one', 'three'])
    await bounded(1, '/clock', { method: 'POST', body: JSON.stringify({ advanceMs: 91_000 }) })
    expect(await listed(0)).toEqual(['default'])
    await expect.poll(() => replicas[0]!.output()).toContain('Session three dropped: idle for 90s (--session-idle)')
    expect(replicas[1]!.output()).not.toContain('Session three dropped')
  } finally {
    await Promise.all(replicas.map((replica) => replica.stop()))
  }
})

it('lets Redis free a session nobody is left to drop, by its keys’ TTL', async () => {
  const replica = await startReplica(['--redis-prefix', 'abandoned:', '--session-idle', '1s'])
  const created = await fetch(`${replica.url}/pets`, {
    ...json({ name: 'Left behind', categoryId: 1 }, 'left'),
    headers: {
      authorization: 'Bearer sandbox-free-key',
      'content-type': 'application/json',
      'x-sandbox-session': 'left',
    },
  })
  expect(created.status).toBe(201)
  await replica.stop('SIGKILL')
  const client = new Redis(redis().url)
  try {
    expect(await client.keys('abandoned:s:left*')).not.toEqual([])
    await expect.poll(() => client.keys('abandoned:s:left*'), { timeout: 20_000, interval: 100 }).toEqual([])
    expect(await client.keys('abandoned:base:*')).not.toEqual([])
  } finally {
    client.disconnect()
  }
})

it('starts both replicas from one capsule (--from): the default session and each fresh session start from it', async () => {
  await call(0, '/pets', json({ name: 'In the capsule', categoryId: 4, status: 'sold' }, 'captured'))
  await adminIn(0, 'captured', '/clock', { method: 'POST', json: { set: '2030-06-04T05:06:07Z' } })
  await adminIn(0, 'captured', '/keys/sandbox-free-key', { method: 'PATCH', json: { remaining: 5 } })
  const capsule = await (await adminIn(1, 'captured', '/sessions/captured/capsule')).json()
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-redis-capsule-')), 'capsule.json')
  writeFileSync(file, JSON.stringify(capsule))
  // Not with the other replicas' --pets: the capsule says which pets there are.
  const args = [
    '--log',
    'off',
    '--redis',
    redis().url,
    '--admin-token',
    ADMIN_TOKEN,
    '--from',
    file,
    '--redis-prefix',
    'from-capsule:',
  ]
  const started = [await startCli(args), await startCli(args)]
  try {
    for (const [index, session] of [
      [0, undefined],
      [1, 'fresh-one'],
    ] as const) {
      const headers: Record<string, string> = {
        authorization: 'Bearer sandbox-free-key',
        ...(session === undefined ? {} : { 'x-sandbox-session': session }),
      }
      const pet = await fetch(`${started[index]!.url}/pets/11`, { headers })
      expect(pet.status).toBe(200)
      expect((await pet.json()).name).toBe('In the capsule')
      expect(pet.headers.get('x-ratelimit-remaining')).toBe('4')
      const clock = await fetch(`${started[index]!.url.replace(/\/v1$/, '')}/__sandbox/clock`, {
        headers: { ...headers, authorization: `Bearer ${ADMIN_TOKEN}` },
      })
      expect((await clock.json()).now.startsWith('2030-06-04T05:0')).toBe(true)
    }
    // Another capsule's pets on the same prefix are refused, as another pets file is (D33).
    const other = join(mkdtempSync(join(tmpdir(), 'petstore-redis-capsule-')), 'other.json')
    writeFileSync(
      other,
      JSON.stringify({
        ...capsule,
        pets: capsule.pets.map((pet: { name: string }, index: number) =>
          index === 0 ? { ...pet, name: 'Other' } : pet,
        ),
      }),
    )
    const refused = await runCli([
      'start',
      '--port',
      '0',
      ...args.slice(0, -4),
      '--from',
      other,
      '--redis-prefix',
      'from-capsule:',
    ])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)
    expect(refused.stderr).toContain('the pets of a --pets-file')
  } finally {
    await Promise.all(started.map((replica) => replica.stop()))
  }
})

it("refuses a capsule whose clock is outside the clock's span (D28) as memory does, and lists sessions after", async () => {
  const capsule = (await (await admin(0, '/sessions/default/capsule')).json()) as Record<string, unknown>
  for (const clock of ['1969-12-31T23:59:59.999Z', '+275760-09-13T00:00:00.000Z']) {
    const refused = await admin(1, '/sessions/out-of-span', {
      method: 'PUT',
      json: { capsule: { ...capsule, har: undefined, clock } },
    })
    expect(refused.status, clock).toBe(400)
    expect((await refused.json()).message).toMatch(/^capsule\.clock must be an RFC 3339 date-time between 1970/)
  }
  expect((await admin(0, '/sessions/out-of-span')).status).toBe(404)
  expect((await call(1, '/pets?limit=1', inSession('out-of-span'))).status).toBe(200)
  expect((await admin(0, '/sessions')).status).toBe(200)
})
