import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEFAULT_REDIS_PREFIX, redisKeys } from '../../src/node/redis/redis-keys.js'
import { REDIS_SCRIPTS } from '../../src/node/redis/redis-scripts.js'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// A session drop and a listing with the shared request log full (100,000 kept entries, 1000
// sessions) answer, on two replicas of one Redis: no script reads the whole log, and what each
// session keeps stays right (docs/reliability.md#sessions-with-a-full-request-log).
const KEPT = 100_000
const FILLERS = 1000
const { call, admin, redis } = useRedisReplicas(2, [
  '--keep-requests',
  String(KEPT),
  '--max-sessions',
  String(FILLERS + 10),
])
const group = redisKeys(DEFAULT_REDIS_PREFIX).groups[0]!
let probe: Redis

beforeAll(() => {
  probe = new Redis(redis().url)
})
afterAll(() => probe?.disconnect())

type Entry = { method: string; path: string; session?: string }
type Listed = { sessions: Array<{ name: string; requests: number }> }

const inSession = (session: string) => ({ headers: { 'x-sandbox-session': session } })
const adminIn = (index: number, session: string, path: string, init: RequestInit = {}) =>
  admin(index, path, { ...init, headers: { ...init.headers, 'x-sandbox-session': session } })
const entriesOf = async (index: number, session: string) =>
  ((await (await adminIn(index, session, '/requests')).json()) as { requests: Entry[] }).requests
const listed = async (index: number) => {
  const answer = await admin(index, '/sessions')
  expect(answer.status).toBe(200)
  return new Map(((await answer.json()) as Listed).sessions.map(({ name, requests }) => [name, requests]))
}

it('drops a session and lists 1000 with 100,000 kept entries; the dropped one’s entries go, the others’ stay in order', async () => {
  // 1000 sessions, then 100 entries each in the shared log, written as the replicas write theirs.
  const fillers = Array.from({ length: FILLERS }, (_, index) => `filler-${index}`)
  for (let from = 0; from < FILLERS; from += 25)
    await Promise.all(
      fillers
        .slice(from, from + 25)
        .map(async (name) =>
          expect((await admin(0, `/sessions/${name}`, { method: 'PUT', json: {} })).status).toBe(200),
        ),
    )
  expect((await call(0, '/pets/1', inSession('filler-0'))).status).toBe(200)
  await expect.poll(async () => (await entriesOf(0, 'filler-0')).length).toBe(1)
  const [template] = await entriesOf(0, 'filler-0')
  for (let from = 0; from < KEPT; from += 10_000) {
    const batch = Array.from({ length: 10_000 }, (_, offset) => {
      const session = fillers[(from + offset) % FILLERS]!
      return [session, '', JSON.stringify({ ...template, path: `/v1/pets/${from + offset}`, session })]
    })
    await probe.eval(REDIS_SCRIPTS.logRequests, 1, group.meta, group.prefix, KEPT, 'filler', 'filler', ...batch.flat())
  }

  // Two sessions' requests through both replicas, each seen in the shared log before the next.
  const sent: Record<'kept' | 'gone', string[]> = { kept: [], gone: [] }
  for (let index = 0; index < 12; index++) {
    const session = index % 3 === 0 ? 'gone' : 'kept'
    const path = `/pets/${(index % 10) + 1}?n=${index}`
    expect((await call(index % 2, path, inSession(session))).status).toBe(200)
    sent[session].push(`/v1${path}`)
    await expect.poll(async () => (await entriesOf(0, session)).length).toBe(sent[session].length)
  }

  const before = await listed(1)
  expect(before.size).toBe(FILLERS + 3)
  expect([before.get('kept'), before.get('gone')]).toEqual([8, 4])
  // The oldest went as the new ones came: filler-0's own request, then one written entry each of filler-0 to 11.
  expect([...before.values()].reduce((sum, count) => sum + count, 0)).toBe(KEPT)
  expect([before.get('filler-0'), before.get('filler-11'), before.get('filler-12')]).toEqual([99, 99, 100])
  const gone = (await call(1, '/pets/1', inSession('gone'))).status
  expect(gone).toBe(200)
  await expect.poll(async () => (await entriesOf(1, 'gone')).length).toBe(5)

  const deleted = await admin(1, '/sessions/gone', { method: 'DELETE' })
  expect(deleted.status).toBe(200)
  const after = await listed(0)
  expect(after.has('gone')).toBe(false)
  expect(after.size).toBe(FILLERS + 2)
  // Every other session keeps what it kept, but filler-12: the dropped session's last entry had pushed one out.
  const expected = new Map([...before].filter(([name]) => name !== 'gone'))
  expected.set('filler-12', 99)
  expect([...after]).toEqual([...expected])
  expect([...after.values()].reduce((sum, count) => sum + count, 0)).toBe(KEPT - 5)

  // The kept session's entries through either replica, in the order they were answered.
  for (const index of [0, 1]) expect((await entriesOf(index, 'kept')).map((entry) => entry.path)).toEqual(sent.kept)
  const har = async (index: number, session: string) =>
    (
      (await (await adminIn(index, session, '/requests.har')).json()) as {
        log: { entries: Array<{ request: { url: string } }> }
      }
    ).log.entries.map((entry) => new URL(entry.request.url).pathname + new URL(entry.request.url).search)
  // A HAR is of the exchanges a replica answered itself: replica 0's are the even ones.
  expect(await har(0, 'kept')).toEqual(sent.kept.filter((_, index) => [1, 2, 4, 5, 7, 8, 10, 11][index]! % 2 === 0))
  // Named again, the session is made afresh: none of the dropped one's entries, on either replica
  // (the other takes the drop up within a second, as it follows the sessions it uses).
  expect(await entriesOf(1, 'gone')).toEqual([])
  expect(await har(1, 'gone')).toEqual([])
  expect(await entriesOf(0, 'gone')).toEqual([])
  await expect.poll(() => har(0, 'gone')).toEqual([])
  expect(await har(0, 'kept')).toHaveLength(4)
  expect((await listed(1)).get('gone')).toBe(0)
  // What Redis holds agrees: one list per session, its count beside it, the group's total.
  expect(await probe.llen(group.sessionLog('gone'))).toBe(0)
  expect(await probe.hget(group.logCounts, 'kept')).toBe('8')
  expect(await probe.hget(group.meta, 'logged')).toBe(String(KEPT - 5))
}, 240_000)
