import { Redis } from 'ioredis'
import { beforeAll, expect, it } from 'vitest'
import { runCli } from '../support/start-cli.js'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Two CLI replicas on one Redis serve each session as one world (docs/decisions.md#d34): what one
// replica does in a session, the other shows in that session and in no other.
const { call, admin, redis } = useRedisReplicas(2, ['--pets', '10'])
const json = (body: unknown, session?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(session === undefined ? {} : { 'x-sandbox-session': session }) },
  body: JSON.stringify(body),
})
const inSession = (session: string, init: RequestInit & { key?: string } = {}) => ({ ...init, headers: { ...init.headers, 'x-sandbox-session': session } })
const ids = async (response: Response) => ((await response.json()) as Array<{ id: number }>).map((pet) => pet.id)

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

it('keeps a key’s quota in a session exact across replicas under a concurrent burst', async () => {
  const burst = await Promise.all(Array.from({ length: 90 }, (_, i) => call(i % 2, '/pets?limit=1', inSession('burst', { key: 'sandbox-free-key' }))))
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
  const refused = await runCli(['start', '--port', '0', '--log', 'off', '--redis', redis().url, '--redis-prefix', 'old-layout:'])
  expect(refused.code).toBe(1)
  expect(refused.stderr.trim().split('\n')).toEqual([
    `error: Redis at ${redis().url} (prefix old-layout:) holds a state written by an older petstore-sandbox, in a key layout this one does not read: start with another --redis-prefix, or delete the keys under old-layout: (every pet, session and runtime key stored there goes)`,
  ])
})
