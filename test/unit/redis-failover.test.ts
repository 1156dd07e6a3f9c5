import { expect, it } from 'vitest'
import { createRedisFailover, FAILOVER_RETRY_MS } from '../../src/node/redis/redis-failover.js'
import type { RedisClient } from '../../src/node/redis/redis-scripts-client.js'

// What ioredis rejects a command with while a master goes away and its replica takes over.
const WHILE_FAILING_OVER = [
  'CLUSTERDOWN The cluster is down',
  'TRYAGAIN Multiple keys request during rehashing of slot',
  'Connection is closed.',
  'Command aborted due to connection close',
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.',
  "Cluster isn't ready and enableOfflineQueue options is false",
]

const client = {} as RedisClient

it('rides out what a failover rejects with, within the bound, and passes anything else on at once', async () => {
  const failover = createRedisFailover({ client, boundMs: 10 * FAILOVER_RETRY_MS })
  for (const message of WHILE_FAILING_OVER) {
    let calls = 0
    const answer = await failover.ride(async () => {
      if (++calls === 1) throw new Error(message)
      return 'answered'
    })
    expect([answer, calls], message).toEqual(['answered', 2])
  }
  let calls = 0
  const refused = failover.ride(async () => {
    calls++
    throw new Error('ERR wrong number of arguments')
  })
  await expect(refused).rejects.toThrow('ERR wrong number of arguments')
  expect(calls).toBe(1)
})

it('gives up once the bound is spent, and at once without a cluster (no bound)', async () => {
  let clock = 0
  const failover = createRedisFailover({ client, boundMs: 3 * FAILOVER_RETRY_MS, now: () => clock })
  let calls = 0
  const spent = failover.ride(async () => {
    calls++
    clock += FAILOVER_RETRY_MS
    throw new Error('Connection is closed.')
  })
  await expect(spent).rejects.toThrow('Connection is closed.')
  expect(calls).toBe(3)
  const standalone = createRedisFailover({ client, boundMs: 0 })
  calls = 0
  await expect(
    standalone.ride(async () => {
      calls++
      throw new Error("Stream isn't writeable and enableOfflineQueue options is false")
    }),
  ).rejects.toThrow("Stream isn't writeable")
  expect(calls).toBe(1)
})
