import { Redis } from 'ioredis'
import { afterEach, expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startCli, type CliProcess } from '../support/start-cli.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// A standalone Redis with a replica: a create is answered 201 only once the replica has it (WAIT 1),
// as on a Redis Cluster; without one, the banner and /readyz say so (docs/decisions.md#d44).
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

async function sandbox(redis: RedisServer): Promise<CliProcess> {
  const cli = await startCli(['--log', 'off', '--redis', redis.url, '--pets', '10'])
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

const create = (cli: CliProcess, name: string) =>
  call(cli, '/pets', { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }) })

/** The `shared state` check of the sandbox's /readyz: ready, and its detail. */
async function sharedState(cli: CliProcess) {
  const url = `${cli.url.replace(/\/v1$/, '')}/readyz`
  const response = await fetch(url)
  adminContract.check('GET', url, response)
  const body = (await response.json()) as { checks: Array<{ name: string; ready: boolean; detail?: string }> }
  return body.checks.find((check) => check.name === 'shared state')!
}

/** Resolves once `replica` follows `primary` with its link up, as INFO replication tells on both sides. */
async function following(primary: RedisServer, replica: RedisServer) {
  const [onPrimary, onReplica] = [new Redis(primary.url), new Redis(replica.url)]
  try {
    for (;;) {
      const [mine, theirs] = await Promise.all([onPrimary.info('replication'), onReplica.info('replication')])
      if (/^connected_slaves:1\b/m.test(mine) && /^master_link_status:up/m.test(theirs)) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } finally {
    onPrimary.disconnect()
    onReplica.disconnect()
  }
}

/** Resolves once the sandbox's /readyz detail is `wanted` (the sandbox asks Redis about its replicas once a second). */
async function detailBecomes(cli: CliProcess, wanted: string | undefined) {
  while ((await sharedState(cli)).detail !== wanted) await new Promise((resolve) => setTimeout(resolve, 100))
}

const ALONE = 'Redis has no replica: a pet created is lost if Redis is, but for what it persists'

it('answers a create 201 only once the replica has it: 503 while the replica is frozen, every pet on it after the primary dies', async () => {
  const primary = await redisServer()
  const replica = await redisServer({ replicaOf: primary.port })
  await following(primary, replica)
  const cli = await sandbox(primary)
  expect(cli.output()).toContain(`Shared state: ${primary.url}, key prefix petstore-sandbox:\n`)
  expect(await sharedState(cli)).toEqual({ name: 'shared state', ready: true })

  // A replica that does not answer: the create is stored on the primary but not acknowledged.
  replica.freeze(true)
  const unacknowledged = await create(cli, 'Only on the primary')
  expect(unacknowledged.status).toBe(503)
  expect(unacknowledged.headers.get('retry-after')).toBe('1')
  replica.freeze(false)

  const made: number[] = []
  for (let i = 0; i < 20; i++) {
    const created = await create(cli, `Acknowledged ${i}`)
    expect(created.status).toBe(201)
    made.push(((await created.json()) as { id: number }).id)
  }
  // The primary dies at once; the replica, promoted, holds every pet answered 201.
  await primary.stop('SIGKILL')
  const promoted = new Redis(replica.url)
  await promoted.call('REPLICAOF', 'NO', 'ONE')
  promoted.disconnect()
  const after = await sandbox(replica)
  for (const [index, id] of made.entries())
    expect(await (await call(after, `/pets/${id}`)).json()).toMatchObject({ id, name: `Acknowledged ${index}` })
}, 60_000)

it('says at start and in /readyz when Redis has no replica, and follows one joining and leaving', async () => {
  const primary = await redisServer()
  const cli = await sandbox(primary)
  expect(cli.output()).toContain(`Shared state: ${primary.url}, key prefix petstore-sandbox:; ${ALONE}`)
  expect(await sharedState(cli)).toEqual({ name: 'shared state', ready: true, detail: ALONE })
  expect((await create(cli, 'Alone')).status).toBe(201)

  const replica = await redisServer({ replicaOf: primary.port })
  await following(primary, replica)
  await detailBecomes(cli, undefined)
  expect((await create(cli, 'With a replica')).status).toBe(201)

  // The replica gone: creates stand on the primary alone again, and /readyz says so.
  await replica.stop('SIGKILL')
  const created = await create(cli, 'Alone again')
  expect(created.status).toBe(201)
  await detailBecomes(cli, ALONE)
  expect(await (await call(cli, '/pets?limit=100')).json()).toHaveLength(13)
}, 60_000)
