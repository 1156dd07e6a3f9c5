import { Redis } from 'ioredis'
import { afterEach, expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// What happens around Redis: restarts, outages, disagreements and durability
// (docs/reliability.md#redis-trouble, docs/running-for-a-team.md#durability).
const contract = createContractChecker()
const adminContract = createAdminContractChecker()
const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function redisServer(options: Parameters<typeof startRedis>[0] = {}): Promise<RedisServer> {
  const redis = await startRedis(options)
  cleanup.push(() => redis.remove())
  return redis
}

async function replica(redis: RedisServer, args: string[] = []): Promise<CliProcess> {
  const cli = await startCli(['--log', 'off', '--redis', redis.url, '--pets', '10', ...args])
  cleanup.push(() => cli.stop('SIGKILL'))
  return cli
}

async function call(cli: CliProcess, path: string, init: RequestInit = {}): Promise<Response> {
  const url = `${cli.url}${path}`
  const response = await fetch(url, {
    ...init,
    headers: { authorization: 'Bearer sandbox-enterprise-key', 'content-type': 'application/json', ...init.headers },
  })
  contract.check(init.method ?? 'GET', url, response)
  return response
}

/** The replica's readiness probe, outside /v1: 503 while it cannot serve. */
async function readyz(cli: CliProcess): Promise<number> {
  const url = `${cli.url.replace(/\/v1$/, '')}/readyz`
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
  adminContract.check('GET', url, response)
  return response.status
}

const create = (cli: CliProcess, name: string) =>
  call(cli, '/pets', { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }) })

it('restarts a replica after kill -9: it finds the shared pets and seeds nothing', async () => {
  const redis = await redisServer()
  const first = await replica(redis)
  const second = await replica(redis)
  expect((await create(first, 'Survivor')).status).toBe(201)
  await first.stop('SIGKILL')
  const again = await replica(redis)
  expect(await (await call(again, '/pets/11')).json()).toMatchObject({ id: 11, name: 'Survivor' })
  expect((await (await create(second, 'Next')).json()).id).toBe(12)
  expect((await call(again, '/pets?limit=100')).status).toBe(200)
  expect(((await (await call(again, '/pets?limit=100')).json()) as unknown[]).length).toBe(12)
})

it('answers 503 with Retry-After while Redis is away, stays up, and serves again once it is back', async () => {
  const redis = await redisServer()
  const cli = await replica(redis)
  const sibling = await replica(redis)
  expect((await create(cli, 'Before')).status).toBe(201)
  // A frozen Redis (connections open, no answers), then a dead one: each request still gets its
  // answer within the 2 s the sandbox promises, or the fetch gives up and the test fails.
  for (const trouble of ['frozen', 'dead'] as const) {
    if (trouble === 'frozen') redis.freeze(true)
    else {
      redis.freeze(false)
      await redis.stop('SIGKILL')
    }
    for (const path of ['/pets', '/pets/1']) {
      const response = await call(cli, path, { signal: AbortSignal.timeout(2_000) })
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('1')
      expect(await response.json()).toMatchObject({ code: 'service_unavailable', status: 503 })
    }
  }
  // A load balancer takes the replica out meanwhile: its readiness names the trouble.
  expect(await readyz(cli)).toBe(503)
  expect(cli.child.exitCode).toBeNull()
  // Redis comes back empty (this one persists nothing): the replicas seed it again by themselves,
  // once between them, however many requests notice at the same moment.
  await redis.restart()
  let statuses = [0]
  for (let attempt = 0; attempt < 50 && !statuses.every((status) => status === 200); attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100))
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(i % 2 === 0 ? cli : sibling, '/pets?limit=1')),
    )
    statuses = burst.map((response) => response.status)
  }
  expect(statuses).toEqual(Array(10).fill(200))
  expect(await readyz(cli)).toBe(200)
  const client = new Redis(redis.url)
  expect(await client.get('petstore-sandbox:generations')).toBe('1')
  client.disconnect()
  expect(((await (await call(cli, '/pets?limit=100')).json()) as unknown[]).length).toBe(10)
  expect((await (await create(cli, 'After')).json()).id).toBe(11)
})

it('refuses to start on a Redis seeded with another seed or pet count, in one line', async () => {
  const redis = await redisServer()
  await replica(redis)
  for (const args of [
    ['--seed', '2'],
    ['--pets', '11'],
  ]) {
    const refused = await runCli([
      'start',
      '--port',
      '0',
      '--log',
      'off',
      '--redis',
      redis.url,
      '--pets',
      '10',
      ...args,
    ])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)
    expect(refused.stderr).toContain(redis.url)
    expect(refused.stderr).toMatch(/--seed 1 --pets 10/)
  }
})

it('fails to start without Redis, in one line naming the URL', async () => {
  const redis = await redisServer()
  await redis.stop()
  const refused = await runCli(['start', '--port', '0', '--redis', redis.url])
  expect(refused.code).toBe(1)
  expect(refused.stderr.trim().split('\n')).toHaveLength(1)
  expect(refused.stderr).toContain(`cannot reach Redis at ${redis.url}`)
  const badUrl = await runCli(['start', '--port', '0', '--redis', 'http://example.invalid'])
  expect(badUrl.code).toBe(1)
  expect(badUrl.stderr).toContain('redis://host:6379')
})

it('refuses a node of a Redis Cluster that does not serve every slot, in one line saying so', async () => {
  const redis = await redisServer({ cluster: true })
  const bare = await runCli(['start', '--port', '0', '--redis', redis.url])
  expect(bare.code).toBe(1)
  expect(bare.stderr.trim().split('\n')).toHaveLength(1)
  expect(bare.stderr).toContain(`the Redis Cluster at ${redis.url} does not serve every slot (cluster_state:fail)`)
  // A list of URLs names a cluster's nodes: refused for a standalone Redis.
  const standalone = await redisServer()
  const listed = await runCli(['start', '--port', '0', '--redis', `${standalone.url},${standalone.url}`])
  expect(listed.code).toBe(1)
  expect(listed.stderr).toContain('is not a node of a Redis Cluster')
})

it('keeps every acknowledged create across a Redis crash with appendfsync always', async () => {
  const redis = await redisServer({ appendfsync: 'always' })
  const cli = await replica(redis)
  const created = await Promise.all(Array.from({ length: 20 }, (_, i) => create(cli, `Durable ${i}`)))
  expect(created.every((response) => response.status === 201)).toBe(true)
  await redis.restart()
  let pets: Array<{ id: number; name: string }> = []
  for (let attempt = 0; attempt < 50 && pets.length === 0; attempt++) {
    const response = await call(cli, '/pets?limit=100')
    if (response.status === 200) pets = await response.json()
    else await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(pets.filter((pet) => pet.name.startsWith('Durable '))).toHaveLength(20)
})

it('keeps sandboxes with different prefixes apart on one Redis, and reads the URL from the environment', async () => {
  const redis = await redisServer()
  const teamA = await replica(redis)
  const teamB = await startCli(['--log', 'off', '--pets', '3', '--seed', '9', '--redis-prefix', 'team-b:'], {
    PETSTORE_SANDBOX_REDIS_URL: redis.url,
  })
  cleanup.push(() => teamB.stop('SIGKILL'))
  expect(teamB.output()).toContain(`Shared state: ${redis.url}, key prefix team-b:`)
  expect((await create(teamA, 'Only in A')).status).toBe(201)
  expect((await call(teamB, '/pets/11')).status).toBe(404)
  expect(((await (await call(teamB, '/pets?limit=100')).json()) as unknown[]).length).toBe(3)
})

it('refuses --now and --state with --redis: the clock and the pets are shared', async () => {
  const redis = await redisServer()
  for (const args of [
    ['--now', '2030-01-01T00:00:00Z'],
    ['--state', '/tmp/never-written.jsonl'],
  ]) {
    const refused = await runCli(['start', '--port', '0', '--redis', redis.url, ...args])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^error: --(now|state) cannot be combined with --redis/),
    ])
  }
})
