import { Redis } from 'ioredis'
import { beforeAll, expect, it } from 'vitest'
import { failoverBoundMs } from '../../src/node/redis/redis-failover.js'
import { DEFAULT_REDIS_PREFIX, redisKeys, slotOf } from '../../src/node/redis/redis-keys.js'
import { CLUSTER_NODE_TIMEOUT_MS } from '../support/start-redis-cluster.js'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Two sandboxes on one Redis Cluster of 3 masters and 3 replicas, each given another node: the
// sessions spread over the masters, each one world across both sandboxes (docs/decisions.md#d44).
const { call, admin, probe, cluster, replica, startReplica } = useRedisReplicas(2, ['--pets', '10'], { cluster: true })
const SESSIONS = Array.from({ length: 24 }, (_, index) => `team-${index}`)
const inSession = (session: string, init: RequestInit & { key?: string } = {}) => ({
  ...init,
  headers: { ...init.headers, 'x-sandbox-session': session },
})
const create = (index: number, session: string, name: string) =>
  call(
    index,
    '/pets',
    inSession(session, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    }),
  )
const ids = async (response: Response) => ((await response.json()) as Array<{ id: number }>).map((pet) => pet.id)
const STARTUP = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

/** The keys of the sandbox each master holds now. */
async function keysByMaster() {
  const found = new Map<number, string[]>()
  for (const { node } of await cluster().masters()) {
    const client = new Redis(node.url)
    found.set(node.port, (await client.keys('*petstore-sandbox:*')).sort())
    await client.quit()
  }
  return found
}

// Pets answered 201, by session: every one must outlive a master's failover.
const acknowledged = new Map<string, number[]>(SESSIONS.map((session) => [session, []]))

beforeAll(async () => {
  // Each session's world made, with a pet of its own created through one sandbox.
  await Promise.all(
    SESSIONS.map(async (session, index) => {
      const created = await create(index % 2, session, `Pet of ${session}`)
      expect(created.status).toBe(201)
      acknowledged.get(session)!.push(((await created.json()) as { id: number }).id)
    }),
  )
}, 120_000)

it('serves each of 24 sessions as one world across both sandboxes, apart from the others', async () => {
  for (const [index, session] of SESSIONS.entries()) {
    const [mine] = acknowledged.get(session)!
    expect(mine).toBe(11)
    // Read through the other sandbox: the same world.
    const other = (index + 1) % 2
    const read = await call(other, `/pets/${mine}`, inSession(session))
    expect(read.status).toBe(200)
    expect(((await read.json()) as { name: string }).name).toBe(`Pet of ${session}`)
    expect(await ids(await call(other, '/pets?limit=100', inSession(session)))).toEqual([...STARTUP, 11])
  }
  // The default session saw none of them.
  expect(await ids(await call(0, '/pets?limit=100'))).toEqual(STARTUP)
  // Ids go on within a session whichever sandbox creates.
  const next = await create(1, 'team-0', 'Second of team-0')
  expect(((await next.json()) as { id: number }).id).toBe(12)
  acknowledged.get('team-0')!.push(12)
})

it("keeps every session's keys in one slot, and the sessions on every master", async () => {
  const byMaster = await keysByMaster()
  const sessionsOn = new Map<number, Set<string>>()
  const slotsOf = new Map<string, Set<number>>()
  for (const [port, keys] of byMaster) {
    for (const key of keys) {
      const session = /:s:(team-\d+)(:|$)/.exec(key)?.[1]
      if (session === undefined) continue
      sessionsOn.set(port, (sessionsOn.get(port) ?? new Set()).add(session))
      slotsOf.set(session, (slotsOf.get(session) ?? new Set()).add(slotOf(key)))
    }
  }
  expect([...slotsOf.keys()].sort()).toEqual([...SESSIONS].sort())
  for (const slots of slotsOf.values()) expect(slots.size).toBe(1)
  expect(sessionsOn.size).toBe(3)
  for (const sessions of sessionsOn.values()) expect(sessions.size).toBeGreaterThan(0)
})

it("keeps the free plan's 60 a minute exact per session under a burst of 80 split over both sandboxes", async () => {
  const burst = SESSIONS.slice(0, 4)
  for (const session of burst) {
    // The top of a minute in the session's clock, so no window rolls over while it counts.
    expect(
      (
        await admin(0, '/clock', {
          method: 'POST',
          json: { set: '2030-01-01T00:00:00Z' },
          headers: { 'x-sandbox-session': session },
        })
      ).status,
    ).toBe(200)
  }
  // One session's burst after the other, each split over both sandboxes.
  const statuses: number[][] = []
  for (const session of burst) {
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, index) =>
        call(index % 2, '/pets?limit=1', inSession(session, { key: 'sandbox-free-key' })),
      ),
    )
    statuses.push(answers.map((response) => response.status))
  }
  for (const answered of statuses) {
    expect(answered.filter((status) => status === 200)).toHaveLength(60)
    expect(answered.filter((status) => status === 429)).toHaveLength(20)
  }
}, 60_000)

it("forks a session of another group, the copy standing alone with the source's pets and next id", async () => {
  const keys = redisKeys(DEFAULT_REDIS_PREFIX, { cluster: true })
  const apart = SESSIONS.slice(1).find((session) => keys.of(session) !== keys.of('team-0'))!
  const fork = `fork-of-team-0`
  expect(keys.of(fork)).not.toBe(keys.of('team-0'))
  const source = await ids(await call(1, '/pets?limit=100', inSession('team-0')))
  const put = await admin(1, `/sessions/${fork}`, { method: 'PUT', json: { from: 'team-0' } })
  expect(put.status).toBe(200)
  expect(await ids(await call(0, '/pets?limit=100', inSession(fork)))).toEqual(source)
  const next = await create(0, fork, 'In the fork')
  expect(((await next.json()) as { id: number }).id).toBe(Math.max(...source) + 1)
  // The source is untouched, and was not made again in the fork's group.
  expect(await ids(await call(1, '/pets?limit=100', inSession('team-0')))).toEqual(source)
  const names = ((await (await admin(0, '/sessions')).json()) as { sessions: Array<{ name: string }> }).sessions.map(
    (session) => session.name,
  )
  expect(names.filter((name) => name === 'team-0')).toHaveLength(1)
  expect(names).toContain(fork)
  expect(await ids(await call(0, '/pets?limit=100', inSession(apart)))).toEqual([...STARTUP, 11])
  expect((await admin(0, `/sessions/${fork}`, { method: 'DELETE' })).status).toBe(200)
})

it('lists every session from either sandbox', async () => {
  for (const index of [0, 1]) {
    const listed = await admin(index, '/sessions')
    expect(listed.status).toBe(200)
    const names = ((await listed.json()) as { sessions: Array<{ name: string }> }).sessions.map(
      (session) => session.name,
    )
    expect(names.filter((name) => name.startsWith('team-')).sort()).toEqual([...SESSIONS].sort())
  }
})

it('serves a key bound through one sandbox on the other, in its session, whatever its group, until it goes', async () => {
  const keys = redisKeys(DEFAULT_REDIS_PREFIX, { cluster: true })
  const sessions = ['bound-a', 'bound-b', 'bound-c', 'bound-d']
  expect(new Set(sessions.map((session) => keys.of(session))).size).toBeGreaterThan(1)
  const bound = new Map<string, string>()
  for (const session of sessions) {
    const made = await admin(0, `/sessions/${session}/keys`, { method: 'POST', json: { plan: 'pro' } })
    expect(made.status).toBe(201)
    bound.set(session, ((await made.json()) as { key: string }).key)
  }
  for (const session of sessions) {
    const key = bound.get(session)!
    const created = await call(1, '/pets', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bound in ${session}`, categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('x-sandbox-session')).toBe(session)
    const quota = await admin(1, `/keys/${encodeURIComponent(key)}`, { headers: { 'x-sandbox-session': session } })
    expect(quota.status).toBe(200)
  }
  for (const session of sessions) {
    const listed = (await (await call(0, '/pets?limit=100', { key: bound.get(session)! })).json()) as Array<{
      name: string
    }>
    expect(listed.map((pet) => pet.name).filter((name) => name.startsWith('Bound in'))).toEqual([`Bound in ${session}`])
  }
  // Gone with its session through one sandbox, refused through the other, and no session made again.
  for (const session of sessions)
    expect((await admin(1, `/sessions/${session}`, { method: 'DELETE' })).status).toBe(200)
  for (const session of sessions) {
    expect((await call(0, '/pets', { key: bound.get(session)! })).status).toBe(401)
    expect((await admin(0, `/sessions/${session}`)).status).toBe(404)
  }
})

/** Resolves once `done()` holds, asked every 20 ms. */
async function until(done: () => boolean) {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20))
}

it("moves a session group's slot to another master while its sessions are used: they answer throughout, their worlds whole", async () => {
  const keys = redisKeys(DEFAULT_REDIS_PREFIX, { cluster: true })
  const group = keys.of('team-0')
  const moving = SESSIONS.filter((session) => keys.of(session) === group)
  const slot = slotOf(group.meta)
  const from = await cluster().masterOf(slot)
  const to = (await cluster().masters()).map(({ node }) => node).find((node) => node !== from)!
  const before = new Map<string, number[]>()
  for (const session of moving) before.set(session, await ids(await call(0, '/pets?limit=100', inSession(session))))
  // Every master forgets its scripts: each is loaded again on the node that runs it, as ioredis
  // does it (EVALSHA, then EVAL on NOSCRIPT).
  for (const { node } of await cluster().masters()) {
    const client = new Redis(node.url)
    await client.call('SCRIPT', 'FLUSH')
    client.disconnect()
  }
  // Each session of the group creates through one sandbox and lists through the other, in turn.
  let going = true
  let rounds = 0
  const statuses: number[] = []
  const made = new Map<string, number[]>(moving.map((session) => [session, []]))
  const traffic = Promise.all(
    moving.flatMap((session) =>
      [0, 1].map(async (through) => {
        for (let round = 0; going; round++) {
          const created = await create(through, session, `Moving ${round}`)
          statuses.push(created.status)
          if (created.status === 201) {
            const { id } = (await created.json()) as { id: number }
            made.get(session)!.push(id)
            acknowledged.get(session)!.push(id)
          }
          statuses.push((await call(1 - through, '/pets?limit=100', inSession(session))).status)
          rounds++
        }
      }),
    ),
  )
  await until(() => rounds >= 4)
  const move = await cluster().moveSlot(slot, to)
  expect(move.keys).toBeGreaterThan(moving.length)
  // The keys on the target, the slot still the source's: the source answers ASK, and the sessions answer.
  const asked = rounds
  await until(() => rounds >= asked + 8)
  await move.assign()
  expect((await cluster().masterOf(slot)).port).toBe(to.port)
  // The slot the target's: the source answers MOVED, ioredis follows it and maps the slot again.
  const assigned = rounds
  await until(() => rounds >= assigned + 8)
  going = false
  await traffic
  expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([])
  for (const session of moving) {
    const whole = [...before.get(session)!, ...made.get(session)!].sort((a, b) => a - b)
    for (const index of [0, 1])
      expect(await ids(await call(index, '/pets?limit=100', inSession(session)))).toEqual(whole)
  }
  // Every key of the group on the target now, with the tokens of the creates made there since (D44).
  const byMaster = await keysByMaster()
  expect(byMaster.get(from.port)!.filter((key) => slotOf(key) === slot)).toEqual([])
  expect(byMaster.get(to.port)!.filter((key) => slotOf(key) === slot).length).toBeGreaterThanOrEqual(move.keys)
}, 120_000)

it('stalls the requests of a SIGKILLed busiest master until its replica answers, within 30 s for every session, with every acknowledged create still there', async () => {
  // Every master has a replica: nothing said.
  const before = (await (await probe(0, '/readyz')).json()) as { checks: Array<{ name: string; detail?: string }> }
  expect(before.checks.find((check) => check.name === 'shared state')?.detail).toBeUndefined()
  const byMaster = await keysByMaster()
  const busiest = [...byMaster].sort(([, a], [, b]) => b.length - a.length)[0]![0]
  const victim = cluster().nodes.find((node) => node.port === busiest)!
  // Creates and listings keep coming through both sandboxes while the master dies; each answer is
  // kept with how long it took.
  let creating = true
  const answered: Array<{ status: number; retryAfter: string | null; tookMs: number }> = []
  const timed = async (request: () => Promise<Response>) => {
    const sent = performance.now()
    const response = await request()
    answered.push({
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      tookMs: performance.now() - sent,
    })
    return response
  }
  const during = (async () => {
    for (let round = 0; creating; round++) {
      await Promise.all(
        SESSIONS.map(async (session, index) => {
          const through = (index + round) % 2
          const created = await timed(() => create(through, session, `Round ${round}`))
          if (created.status === 201) acknowledged.get(session)!.push(((await created.json()) as { id: number }).id)
          await timed(() => call(1 - through, '/pets?limit=5', inSession(session)))
        }),
      )
    }
  })()
  await new Promise((resolve) => setTimeout(resolve, 500))
  await victim.stop('SIGKILL')
  const killedAt = Date.now()
  // Every session answers again through both sandboxes: the replica took the master's slots.
  const pending = new Set(SESSIONS.flatMap((session) => [`${session}|0`, `${session}|1`]))
  while (pending.size > 0) {
    expect(Date.now() - killedAt).toBeLessThan(30_000)
    await Promise.all(
      [...pending].map(async (entry) => {
        const [session, index] = entry.split('|') as [string, string]
        const listed = await call(Number(index), '/pets?limit=1', inSession(session)).catch(() => undefined)
        if (listed?.status === 200) pending.delete(entry)
      }),
    )
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 200))
  }
  creating = false
  await during
  // Failed over within the cluster's time to notice and elect, and well within the bound.
  expect(Date.now() - killedAt).toBeGreaterThan(CLUSTER_NODE_TIMEOUT_MS / 2)
  // A request to the dead master's slots waited for its replica and then answered: none was
  // answered 5xx before the failover's bound, and one past it only with a 503 to retry.
  const bound = failoverBoundMs(CLUSTER_NODE_TIMEOUT_MS)
  expect(answered.filter(({ status, tookMs }) => status >= 500 && tookMs < bound)).toEqual([])
  for (const { status, retryAfter } of answered.filter(({ status }) => status >= 500)) {
    expect(status).toBe(503)
    expect(retryAfter).toBe('1')
  }
  // Some waited: the ones the kill caught, answered once the replica took over.
  expect(answered.some(({ status, tookMs }) => status < 500 && tookMs > CLUSTER_NODE_TIMEOUT_MS / 2)).toBe(true)
  const lost: string[] = []
  await Promise.all(
    [...acknowledged].map(async ([session, made]) => {
      for (const id of made)
        if ((await call(id % 2, `/pets/${id}`, inSession(session))).status !== 200) lost.push(`${session}/${id}`)
    }),
  )
  expect(lost).toEqual([])
  expect([...acknowledged.values()].flat().length).toBeGreaterThan(SESSIONS.length * 2)
  for (const [index, session] of SESSIONS.entries())
    expect((await create(index % 2, session, 'After the failover')).status).toBe(201)
  // The promoted replica has none of its own: /readyz says so, in the check's detail.
  for (;;) {
    const after = (await (await probe(1, '/readyz')).json()) as {
      status: string
      checks: Array<{ name: string; detail?: string }>
    }
    const detail = after.checks.find((check) => check.name === 'shared state')?.detail
    if (detail !== undefined) {
      expect(after.status).toBe('ready')
      expect(detail).toMatch(
        /^1 of 3 Redis Cluster masters have no replica \(127\.0\.0\.1:\d+\): a pet created there is lost if its master is$/,
      )
      break
    }
    expect(Date.now() - killedAt).toBeLessThan(60_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  // A sandbox started now says it at start, given a node that is still up.
  const late = await startReplica(
    [],
    [0, 1, 2].find((index) => cluster().nodes[index] !== victim),
  )
  while (!late.output().includes('Shared state:')) await new Promise((resolve) => setTimeout(resolve, 100))
  // And how long a failover stalls a request: the cluster-node-timeout and the margin (D44).
  const stall = `${failoverBoundMs(CLUSTER_NODE_TIMEOUT_MS) / 1000}s`
  expect(late.output()).toMatch(
    new RegExp(
      `Shared state: .*; a master's failover stalls a request for at most ${stall}; 1 of 3 Redis Cluster masters`,
    ),
  )
  await late.stop('SIGKILL')
  // The sandboxes lived through it.
  expect(replica(0).output()).not.toContain('Error')
}, 120_000)
