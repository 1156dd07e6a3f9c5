import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type RequestLogEntry, type SharedSandbox } from '../../src/index.js'
import { connectRedisState } from '../../src/redis.js'
import { adminDocument } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startRedis } from '../support/start-redis.js'
import { ADMIN_TOKEN, useRedisReplicas } from '../support/use-redis-replicas.js'

// The live request log (onRequest, the dashboard's event stream) of a replica shows the requests
// every replica sharing its Redis prefix answered (docs/running-for-a-team.md#several-replicas-one-redis).
const replicas = useRedisReplicas(2, ['--pets', '5'])
const contract = createContractChecker()
const isLogEntry = new Ajv({ strict: false })
addFormats.default(isLogEntry)
// With the whole document, for the entry's references to other schemas (its session's name).
const checkEntry = isLogEntry
  .addSchema(adminDocument as object, 'admin')
  .getSchema('admin#/components/schemas/RequestLogEntry')!
const api = 'http://api.test/v1'
const PREFIX = 'live:'
let first: SharedSandbox
let second: SharedSandbox
let other: SharedSandbox
let probe: Redis

beforeAll(async () => {
  const url = replicas.redis().url
  first = createSandbox({ shared: await connectRedisState({ url, prefix: PREFIX }), baseUrl: api, pets: 5 })
  await first.ready()
  second = createSandbox({ shared: await connectRedisState({ url, prefix: PREFIX }), baseUrl: api, pets: 5 })
  await second.ready()
  // Another sandbox on the same Redis under another prefix: none of its requests may show.
  other = createSandbox({ shared: await connectRedisState({ url, prefix: 'elsewhere:' }), baseUrl: api, pets: 5 })
  await other.ready()
  probe = new Redis(url)
})
afterAll(async () => {
  await Promise.all([first?.close(), second?.close(), other?.close()])
  await probe?.quit()
})

async function call(sandbox: SharedSandbox, path: string, key = 'sandbox-free-key'): Promise<Response> {
  const response = await sandbox.fetch(`${api}${path}`, { headers: { authorization: `Bearer ${key}` } })
  contract.check('GET', `${api}${path}`, response)
  return response
}

/** Collects what `sandbox.onRequest` delivers, until `stop()`. */
function watch(sandbox: SharedSandbox) {
  const seen: RequestLogEntry[] = []
  const stop = sandbox.onRequest((entry) => seen.push(entry))
  return { seen, stop, paths: () => seen.map((entry) => entry.path) }
}

// The channel names the database (db0 here): channels are one namespace across a server's databases.
const subscribers = async (prefix = PREFIX) =>
  ((await probe.pubsub('NUMSUB', `${prefix}requests:db0`)) as [string, number])[1]

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`still waiting for ${what}`)
}

it("delivers each request of either sandbox to every watcher once, the other's too, masked", async () => {
  const onFirst = watch(first)
  const onSecond = watch(second)
  await until(async () => (await subscribers()) === 2, 'both sandboxes to subscribe')

  expect((await call(first, '/pets?limit=1&from=first&api_key=sandbox-free-key')).status).toBe(200)
  expect((await call(second, '/pets?limit=2&from=second', 'sandbox-pro-key')).status).toBe(200)
  expect((await call(first, '/pets/999')).status).toBe(404)
  // Another prefix is another sandbox: its requests reach neither.
  expect((await call(other, '/pets?limit=1&from=other')).status).toBe(200)
  const expected = ['/v1/pets?limit=1&from=first&api_key=', '/v1/pets?limit=2&from=second', '/v1/pets/999']
  const complete = (paths: string[]) =>
    paths.length >= 3 && expected.every((path) => paths.some((seen) => seen.startsWith(path)))
  await until(() => complete(onFirst.paths()) && complete(onSecond.paths()), 'the three requests on both watchers')
  // Whatever travels late has had time to arrive twice, if it were sent twice.
  await new Promise((resolve) => setTimeout(resolve, 200))
  onFirst.stop()
  onSecond.stop()

  for (const { seen } of [onFirst, onSecond]) {
    expect(seen).toHaveLength(3)
    for (const entry of seen) expect(checkEntry(entry), JSON.stringify(entry)).toBe(true)
    expect(JSON.stringify(seen)).not.toContain('sandbox-free-key')
    expect(JSON.stringify(seen)).not.toContain('sandbox-pro-key')
    expect(seen.map(({ method, status, key }) => ({ method, status, key: key.slice(0, 5) }))).toEqual(
      expect.arrayContaining([
        { method: 'GET', status: 200, key: 'sand…' },
        { method: 'GET', status: 404, key: 'sand…' },
      ]),
    )
  }
  // The entries as each replica's own log keeps them: one sandbox, one view.
  const kept = await second.requests(3)
  expect(new Set(onSecond.seen.map((entry) => JSON.stringify(entry)))).toEqual(
    new Set(kept.map((entry) => JSON.stringify(entry))),
  )
  expect(new Set(onFirst.seen.map((entry) => JSON.stringify(entry)))).toEqual(
    new Set(kept.map((entry) => JSON.stringify(entry))),
  )
})

it('keeps two sandboxes with one prefix in two databases of one Redis apart: neither hears the other', async () => {
  const url = replicas.redis().url
  const inDatabase = async (db: number) => {
    const sandbox = createSandbox({
      shared: await connectRedisState({ url: `${url}/${db}`, prefix: PREFIX }),
      baseUrl: api,
      pets: 5,
    })
    await sandbox.ready()
    return sandbox
  }
  const [one, two] = await Promise.all([inDatabase(1), inDatabase(2)])
  try {
    const onOne = watch(one)
    const onTwo = watch(two)
    // Both subscribed, on whatever channels they use.
    const subscribed = async () => {
      const channels = (await probe.pubsub('CHANNELS', `${PREFIX}*`)) as string[]
      const counts =
        channels.length === 0 ? [] : ((await probe.pubsub('NUMSUB', ...channels)) as Array<string | number>)
      return counts.filter((count) => typeof count === 'number').reduce((sum, count) => sum + count, 0)
    }
    await until(async () => (await subscribed()) === 2, 'both sandboxes to subscribe')
    expect((await call(two, '/pets?limit=1&from=db2')).status).toBe(200)
    expect((await call(one, '/pets?limit=1&from=db1')).status).toBe(200)
    await until(
      () => onOne.paths().includes('/v1/pets?limit=1&from=db1') && onTwo.paths().includes('/v1/pets?limit=1&from=db2'),
      'each its own request',
    )
    // Whatever travels late has had time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(onOne.paths()).toEqual(['/v1/pets?limit=1&from=db1'])
    expect(onTwo.paths()).toEqual(['/v1/pets?limit=1&from=db2'])
    expect((await one.requests()).map((entry) => entry.path)).toEqual(['/v1/pets?limit=1&from=db1'])
    onOne.stop()
    onTwo.stop()
  } finally {
    await Promise.all([one.close(), two.close()])
  }
})

it('subscribes only while someone watches, and lets go on close', async () => {
  await until(async () => (await subscribers()) === 0, 'no subscriber before anyone watches')
  const one = watch(second)
  const two = watch(second)
  await until(async () => (await subscribers()) === 1, 'one subscription for two watchers of one sandbox')
  one.stop()
  one.stop()
  // The other watcher still hears the first sandbox's requests.
  expect((await call(first, '/pets?limit=1&from=still-watched')).status).toBe(200)
  await until(() => two.paths().includes('/v1/pets?limit=1&from=still-watched'), 'the second watcher to hear it')
  expect(await subscribers()).toBe(1)
  two.stop()
  await until(async () => (await subscribers()) === 0, 'the subscription to end with the last watcher')
  expect(one.paths()).toEqual([])

  const closing = createSandbox({
    shared: await connectRedisState({ url: replicas.redis().url, prefix: PREFIX }),
    baseUrl: api,
    pets: 5,
  })
  await closing.ready()
  watch(closing)
  await until(async () => (await subscribers()) === 1, 'the watched sandbox to subscribe')
  await closing.close()
  await until(async () => (await subscribers()) === 0, 'close() to end the subscription')
})

it("streams the other replica's requests on a replica's /__sandbox/events, over HTTP", async () => {
  const base = replicas.replica(1).url.replace(/\/v1$/, '')
  const controller = new AbortController()
  const stream = await fetch(`${base}/__sandbox/events`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    signal: controller.signal,
  })
  replicas.contract.check('GET', stream.url, stream)
  expect(stream.status).toBe(200)
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
  expect((await reader.read()).value).toBe(': petstore-sandbox request log\n\n')
  let text = ''
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
      if (done) return
      text += value
    }
  })()
  await until(async () => (await subscribers('petstore-sandbox:')) === 1, 'replica 1 to subscribe for its stream')

  expect((await replicas.call(0, '/pets?limit=1&from=replica-0', { key: 'sandbox-free-key' })).status).toBe(200)
  expect((await replicas.call(1, '/pets?limit=1&from=replica-1', { key: 'sandbox-free-key' })).status).toBe(200)
  await until(() => text.includes('from=replica-0') && text.includes('from=replica-1'), 'both requests on the stream')
  // Anything sent twice would be here by now.
  await new Promise((resolve) => setTimeout(resolve, 200))
  controller.abort()
  await reading
  const entries = text
    .split('\n\n')
    .filter((event) => event.startsWith('event: request\n'))
    .map((event) => JSON.parse(event.slice('event: request\ndata: '.length)) as RequestLogEntry)
  expect(entries.map((entry) => entry.path).sort()).toEqual([
    '/v1/pets?limit=1&from=replica-0',
    '/v1/pets?limit=1&from=replica-1',
  ])
  for (const entry of entries) {
    expect(checkEntry(entry), JSON.stringify(entry)).toBe(true)
    expect(entry).toMatchObject({ method: 'GET', status: 200, key: expect.stringMatching(/^sand…#[0-9a-f]{4}$/) })
  }
  expect(text).not.toContain('sandbox-free-key')
  // The stream closed, nobody watches replica 1 any more: it lets go of its subscription.
  await until(
    async () => (await subscribers('petstore-sandbox:')) === 0,
    'replica 1 to unsubscribe once its stream closed',
  )
})

it('keeps a watcher after Redis went away and came back, and closes while Redis is away', async () => {
  // A Redis of its own: this one goes away.
  const own = await startRedis()
  const open = async () => {
    const sandbox = createSandbox({
      shared: await connectRedisState({ url: own.url, prefix: PREFIX }),
      baseUrl: api,
      pets: 5,
    })
    await sandbox.ready()
    return sandbox
  }
  const [answering, watched] = [await open(), await open()]
  const ownProbe = new Redis(own.url)
  ownProbe.on('error', () => undefined)
  const ownSubscribers = async () => ((await ownProbe.pubsub('NUMSUB', `${PREFIX}requests:db0`)) as [string, number])[1]
  try {
    const watcher = watch(watched)
    await until(async () => (await ownSubscribers()) === 1, 'the watched sandbox to subscribe')
    await own.restart()
    // The client subscribes again by itself once Redis is back.
    await until(async () => (await ownSubscribers().catch(() => 0)) === 1, 'the subscription to come back')
    // Redis came back empty: the first request seeds it again, then answers.
    await until(
      async () => (await call(answering, '/pets?limit=1&from=after-restart')).status === 200,
      'an answer after the restart',
    )
    await until(
      () => watcher.paths().includes('/v1/pets?limit=1&from=after-restart'),
      'the watcher to hear a request after the restart',
    )
    await own.stop()
    await Promise.all([answering.close(), watched.close()])
  } finally {
    ownProbe.disconnect()
    await own.remove()
  }
})
