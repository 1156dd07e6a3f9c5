import { expect, it } from 'vitest'
import { checkSessionName } from '../../src/core/sessions/session-name.js'
import { redisKeys } from '../../src/node/redis/redis-keys.js'
import { REDIS_SCRIPTS } from '../../src/node/redis/redis-scripts.js'
import { createLuaRedis } from '../support/run-redis-lua.js'

// A create's token (D44), in a Lua VM without redis-server: the same create sent again through a
// failover answers the pet its first sending made, and makes no second one.
const PREFIX = 'lua:'
const KEYS = redisKeys(PREFIX).groups[0]!
const NOW = Date.UTC(2030, 0, 1)
const TTL = 3_600_000
const MAX_PETS = 100

function luaWorld() {
  const redis = createLuaRedis()
  redis.call('HSET', KEYS.meta, 'base', '1', 'lastId', '3', 'count', '3')
  const run = (script: keyof typeof REDIS_SCRIPTS, name: string, ...args: Array<string | number>) =>
    redis.run(REDIS_SCRIPTS[script], [KEYS.meta], [PREFIX, name, NOW, name === 'default' ? '' : TTL, ...args])
  run('resetWorld', 'default')
  run('useWorld', 'worker-1', 100, TTL)
  const create = (name: string, token: string) =>
    run('putPet', name, '', JSON.stringify({ name: 'Rex', categoryId: 1 }), '', MAX_PETS, token, 40_000)
  const held = (name: string) => {
    const gen = redis.call('HGET', KEYS.session(checkSessionName(name, 'session')), 'gen') as string
    return (redis.call('HGETALL', `${KEYS.prefix}s:${name}:${gen}:pets`) as string[]).length / 2
  }
  const added = () => Number(redis.call('HGET', KEYS.meta, 'added') ?? '0')
  return { create, held, added }
}

it.each(['default', 'worker-1'])('answers a create sent again with its token the id it got, in session %s', (name) => {
  const world = luaWorld()
  const first = world.create(name, 'token-a')
  expect(first).toBe('4')
  expect(world.create(name, 'token-a')).toBe(first)
  expect(world.held(name)).toBe(1)
  expect(world.added()).toBe(1)
  // Another create, or one without a token, is a pet of its own.
  expect(world.create(name, 'token-b')).toBe('5')
  expect(world.create(name, '')).toBe('6')
  expect(world.create(name, '')).toBe('7')
  expect(world.held(name)).toBe(4)
  expect(world.added()).toBe(4)
})

it('keeps a token to its session: the same token in another session makes a pet there', () => {
  const world = luaWorld()
  expect(world.create('default', 'shared')).toBe('4')
  expect(world.create('worker-1', 'shared')).toBe('4')
  expect([world.held('default'), world.held('worker-1')]).toEqual([1, 1])
})
