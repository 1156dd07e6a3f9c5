import fc from 'fast-check'
import { expect, it } from 'vitest'
import { checkSessionName } from '../../src/core/sessions/session-name.js'
import { REQUEST_LOG, redisKeys } from '../../src/node/redis/redis-keys.js'
import { REDIS_SCRIPTS } from '../../src/node/redis/redis-scripts.js'
import { createLuaRedis } from '../support/run-redis-lua.js'

// The request log's scripts, run in a Lua VM without redis-server: each session's entries in a
// list of its own, the group's last `capacity` kept over them all, a drop or a reset forgetting
// one session's list alone. The Redis tier runs the same scripts on redis-server (redis-request-log).
const PREFIX = 'lua:'
const KEYS = redisKeys(PREFIX).groups[0]!
const NOW = Date.UTC(2030, 0, 1)
const TTL = 3_600_000
const SESSIONS = ['default', 'a', 'b', 'c']

/** A fresh stand-in of Redis, seeded as a process leaves it, with its sessions made and a way to run the log's scripts. */
function luaLog(capacity: number) {
  const redis = createLuaRedis()
  redis.call('HSET', KEYS.meta, 'base', '1', 'lastId', '0', 'count', '0')
  const world = (script: keyof typeof REDIS_SCRIPTS, name: string, ...args: Array<string | number>) =>
    redis.run(REDIS_SCRIPTS[script], [KEYS.meta], [PREFIX, name, NOW, name === 'default' ? '' : TTL, ...args])
  const make = (name: string) => (name === 'default' ? world('resetWorld', name) : world('useWorld', name, 100, TTL))
  for (const name of SESSIONS) make(name)
  const generation = (name: string) =>
    redis.call('HGET', KEYS.session(checkSessionName(name, 'session')), 'gen') as string | null
  return {
    redis,
    make,
    /** Logs entries (oldest first) as one process's batch, each in its session's generation in force unless given. */
    log: (entries: Array<{ session: string; id: number; gen?: string }>) =>
      redis.run(
        REDIS_SCRIPTS.logRequests,
        [KEYS.meta],
        [
          PREFIX,
          capacity,
          KEYS.requests,
          'sender',
          ...entries.flatMap(({ session, id, gen }) => [
            session === 'default' ? '' : session,
            gen ?? generation(session) ?? '',
            JSON.stringify({ id }),
          ]),
        ],
      ),
    drop: (name: string) => world('deleteWorld', name),
    reset: (name: string) => world('resetWorld', name),
    /** A session's kept entries' ids, newest first, as the Node side reads them. */
    kept: (name: string) =>
      (redis.call('LRANGE', KEYS.sessionLog(name), 0, -1) as string[]).map(
        (line) => (JSON.parse(line.slice(line.indexOf(' ') + 1)) as { id: number }).id,
      ),
    held: () => Number(redis.call('HGET', KEYS.meta, REQUEST_LOG.kept) ?? '0'),
    /** What each session's count says, beside its list's length: the two agree. */
    counts: () =>
      SESSIONS.map((name) => [
        Number(redis.call('HGET', KEYS.logCounts, name) ?? '0'),
        redis.call('LLEN', KEYS.sessionLog(name)),
      ]),
  }
}

it('keeps the group’s last entries over every session’s list, each in its session, newest first', () => {
  const log = luaLog(5)
  log.log([
    { session: 'a', id: 1 },
    { session: 'default', id: 2 },
    { session: 'a', id: 3 },
    { session: 'b', id: 4 },
  ])
  expect([log.kept('a'), log.kept('default'), log.kept('b')]).toEqual([[3, 1], [2], [4]])
  // Three more: the two oldest (1, then 2) go, from whichever session holds them.
  log.log([
    { session: 'b', id: 5 },
    { session: 'a', id: 6 },
    { session: 'c', id: 7 },
  ])
  expect([log.kept('a'), log.kept('default'), log.kept('b'), log.kept('c')]).toEqual([[6, 3], [], [5, 4], [7]])
  expect(log.held()).toBe(5)
  expect(log.redis.call('ZRANGE', KEYS.logOldest, 0, -1)).toEqual(['a', 'b', 'c'])
})

it('forgets a dropped or reset session’s entries alone, and counts what the others keep', () => {
  const log = luaLog(10)
  log.log([1, 2, 3, 4, 5, 6].map((id) => ({ session: SESSIONS[id % 4]!, id })))
  expect(log.drop('a')).toBe(1)
  expect(log.kept('a')).toEqual([])
  expect(log.reset('b')).toBeTruthy()
  expect(log.kept('b')).toEqual([])
  expect([log.kept('default'), log.kept('c')]).toEqual([[4], [3]])
  expect(log.held()).toBe(2)
  // The dropped session's place among the oldest went with it: the next trim starts at the others'.
  log.log([7, 8, 9, 10, 11, 12, 13, 14, 15].map((id) => ({ session: 'c', id })))
  expect(log.kept('default')).toEqual([4])
  expect(log.kept('c')).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7])
})

it('keeps no entry answered before its session’s reset, nor one of a named session gone meanwhile', () => {
  const log = luaLog(10)
  const before = log.redis.call('HGET', KEYS.session(checkSessionName('a', 'session')), 'gen') as string
  log.reset('a')
  log.drop('b')
  log.log([
    { session: 'a', id: 1, gen: before },
    { session: 'a', id: 2 },
    { session: 'b', id: 3, gen: '' },
    { session: 'default', id: 4, gen: '' },
  ])
  expect([log.kept('a'), log.kept('b'), log.kept('default')]).toEqual([[2], [], [4]])
  expect(log.redis.call('EXISTS', KEYS.sessionLog('b'))).toBe(0)
})

it('forgets the entries of a session whose keys went with their TTL, when it is listed, made again or trimmed', () => {
  const log = luaLog(4)
  log.log([
    { session: 'a', id: 1 },
    { session: 'b', id: 2 },
    { session: 'c', id: 3 },
    { session: 'default', id: 4 },
  ])
  // Redis let the sessions' keys go (their TTL, the log's list with its meta): their counts stay.
  for (const name of ['a', 'b', 'c'])
    log.redis.call('UNLINK', KEYS.session(checkSessionName(name, 'session')), KEYS.sessionLog(name))
  expect(log.held()).toBe(4)
  const listed = log.redis.run(REDIS_SCRIPTS.listWorlds, [KEYS.meta], [PREFIX, 'default', NOW, '', TTL, 'a'])
  expect(listed).toEqual([''])
  log.make('b')
  expect(log.held()).toBe(2)
  // The trim reaches c's list gone, takes its count off, and keeps the default session's entries.
  log.log([5, 6, 7].map((id) => ({ session: 'default', id })))
  expect(log.kept('default')).toEqual([7, 6, 5, 4])
  expect(log.held()).toBe(4)
  expect(log.redis.call('ZRANGE', KEYS.logOldest, 0, -1)).toEqual(['default'])
  expect(log.redis.call('HGETALL', KEYS.logCounts)).toEqual(['default', '4'])
})

it('keeps exactly what a ring of the last entries would, through generated batches, drops and resets', () => {
  type Step = { kind: 'log'; sessions: number[] } | { kind: 'drop' | 'reset'; session: number }
  const step = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('log' as const), sessions: fc.array(fc.nat(3), { maxLength: 12 }) }),
    },
    fc.record({ kind: fc.constantFrom('drop' as const, 'reset' as const), session: fc.nat(3) }),
  )
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 9 }), fc.array(step, { maxLength: 30 }), (capacity, steps: Step[]) => {
      const log = luaLog(capacity)
      // The oracle: every kept entry, oldest first.
      let ring: Array<{ session: string; id: number }> = []
      let id = 0
      for (const one of steps) {
        if (one.kind === 'log') {
          const batch = one.sessions.map((index) => ({ session: SESSIONS[index]!, id: ++id }))
          log.log(batch)
          ring = [...ring, ...batch].slice(-capacity)
          continue
        }
        const name = SESSIONS[one.session]!
        // The default session is reset, never dropped; a dropped one is made again, as its next use would.
        if (one.kind === 'drop' && name !== 'default') {
          log.drop(name)
          log.make(name)
        } else log.reset(name)
        ring = ring.filter((entry) => entry.session !== name)
      }
      for (const name of SESSIONS)
        expect(log.kept(name)).toEqual(
          ring
            .filter((entry) => entry.session === name)
            .map((entry) => entry.id)
            .reverse(),
        )
      expect(log.held()).toBe(ring.length)
      for (const [count, length] of log.counts()) expect(count).toBe(length)
    }),
    { numRuns: 100 },
  )
}, 60_000)
