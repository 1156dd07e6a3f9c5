import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type SharedSandbox } from '../../src/index.js'
import { connectRedisState } from '../../src/redis.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// The library on Redis: two sandboxes in one Node process, each with its own connection, are one
// sandbox, as two replicas would be.
const contract = createContractChecker()
const api = 'http://api.test/v1'
let redis: RedisServer
let first: SharedSandbox
let second: SharedSandbox

beforeAll(async () => {
  redis = await startRedis()
  first = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'library:' }),
    baseUrl: api,
    pets: 5,
  })
  await first.ready()
  second = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'library:' }),
    baseUrl: api,
    pets: 5,
  })
  await second.ready()
})
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()])
  await redis?.remove()
})

async function call(sandbox: SharedSandbox, path: string, key = 'sandbox-free-key'): Promise<Response> {
  const response = await sandbox.fetch(`${api}${path}`, { headers: { authorization: `Bearer ${key}` } })
  contract.check('GET', `${api}${path}`, response)
  return response
}

it('shares pets, quotas and the clock between sandboxes given the same Redis state', async () => {
  const pet = await first.pets.create({ name: 'Shared', categoryId: 4 })
  expect(await second.pets.get(pet.id)).toEqual(pet)
  expect((await second.pets.all()).map((stored) => stored.id)).toEqual([1, 2, 3, 4, 5, 6])

  await first.clock.set('2030-01-01T00:00:00Z')
  await first.quota.set('sandbox-free-key', { remaining: 1 })
  expect((await call(second, '/pets?limit=1')).status).toBe(200)
  expect((await call(first, '/pets?limit=1')).status).toBe(429)
  expect((await second.quota.get('sandbox-free-key')).refused).toBe(1)
  expect(new Date(second.clock.now()).getUTCFullYear()).toBe(2030)

  await second.reset()
  expect(await first.pets.get(pet.id)).toBeUndefined()
  expect((await first.state()).pets).toEqual({ count: 5, nextId: 6 })
  expect((await call(first, '/pets?limit=1')).status).toBe(200)
})

it('says why it cannot serve while Redis is away, and nothing once it is back', async () => {
  // A Redis of its own: this one goes away.
  const own = await startRedis()
  const shared = await connectRedisState({ url: own.url, prefix: 'probe:' })
  expect(shared.notReady()).toBeUndefined()
  await own.stop()
  for (let attempt = 0; attempt < 50 && shared.notReady() === undefined; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20))
  expect(shared.notReady()).toBe(`Redis at ${own.url} (prefix probe:) is unreachable`)
  await own.restart()
  for (let attempt = 0; attempt < 100 && shared.notReady() !== undefined; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20))
  expect(shared.notReady()).toBeUndefined()
  await shared.close()
  await own.remove()
})

it('refuses, when ready, a sandbox seeded otherwise than the state it joins', async () => {
  const other = createSandbox({ shared: await connectRedisState({ url: redis.url, prefix: 'library:' }), pets: 6 })
  await expect(other.ready()).rejects.toThrow(/holds pets seeded with --seed 1 --pets 5/)
  await other.close()
  // Given pets are known by what they are, not by their last id (docs/decisions.md#d33).
  const pets = (names: string[]) => names.map((name) => ({ name, categoryId: 1 }))
  const given = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'library-given:' }),
    pets: pets(['Ace', 'Bo']),
  })
  await given.ready()
  const same = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'library-given:' }),
    pets: [{ id: 1, name: 'Ace', categoryId: 1 }, ...pets(['Bo'])],
  })
  await same.ready()
  expect((await same.pets.all()).map((pet) => pet.name)).toEqual(['Ace', 'Bo'])
  const mixed = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'library-given:' }),
    pets: pets(['Ace', 'Cy']),
  })
  await expect(mixed.ready()).rejects.toThrow(
    /holds the pets of a --pets-file \(sha256 [0-9a-f]{12}…\), not those of this one/,
  )
  const generated = createSandbox({
    shared: await connectRedisState({ url: redis.url, prefix: 'library-given:' }),
    pets: 2,
  })
  await expect(generated.ready()).rejects.toThrow(/, not generated ones/)
  await Promise.all([given.close(), same.close(), mixed.close(), generated.close()])
})

it('empties the shared request log on reset, requests answered just before it on another sandbox included', async () => {
  await call(first, '/pets?limit=1&from=kept-until-reset')
  const paths = async (sandbox: SharedSandbox) => (await sandbox.requests()).map((entry) => entry.path)
  for (
    let attempt = 0;
    attempt < 50 && !(await paths(second)).includes('/v1/pets?limit=1&from=kept-until-reset');
    attempt++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  expect(await paths(second)).toContain('/v1/pets?limit=1&from=kept-until-reset')
  // Answered, but still in the second sandbox's batch when the first one resets.
  await call(second, '/pets?limit=1&from=answered-before-reset')
  await first.reset()
  expect(await second.requests()).toEqual([])
  // Long after the batch was sent: the reset's empty log stays empty.
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(await first.requests()).toEqual([])
  expect(await second.requests()).toEqual([])
  await call(second, '/pets?limit=1&from=after-reset')
  for (let attempt = 0; attempt < 50 && (await first.requests()).length === 0; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20))
  expect(await paths(first)).toEqual(['/v1/pets?limit=1&from=after-reset'])
})
