// Redis memory per session on a shared state (BENCHMARKS.md, the Redis section): `count` named
// sessions (first argument, default 1000) each answer one listing (they only read), then each
// creates `created` pets (second argument, default 10); Redis's own `used_memory` before and after
// each step, per session. Needs Debian's redis-server, as the tests do. Prints one JSON line.
import { Redis } from 'ioredis'
import { createSandbox } from '../dist/index.js'
import { connectRedisState } from '../dist/redis.js'
import { startRedis } from './support.mjs'

const count = Number(process.argv[2] ?? 1000)
const created = Number(process.argv[3] ?? 10)
const server = await startRedis()
const url = server.url
const probe = new Redis(url)
const used = async () => Number(/^used_memory:(\d+)/m.exec(await probe.info('memory'))?.[1])
try {
  const sandbox = createSandbox({ shared: await connectRedisState({ url }), pets: 1000, sessions: { max: count } })
  await sandbox.ready()
  const ask = async (session, init = {}) => {
    const response = await sandbox.fetch('http://sandbox.test/v1/pets', {
      ...init,
      headers: {
        authorization: 'Bearer sandbox-enterprise-key',
        'x-sandbox-session': session,
        'content-type': 'application/json',
      },
    })
    if (!response.ok) throw new Error(`${session}: ${response.status}`)
    await response.arrayBuffer()
  }
  // Requests in the default session first, so that its keys are there and the request log's ring
  // (100 entries) is as full before as after: only the sessions differ.
  for (let i = 0; i < 200; i++) await ask('default')
  const before = await used()
  for (let i = 0; i < count; i++) await ask(`reader-${i}`)
  const afterReading = await used()
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < created; j++)
      await ask(`reader-${i}`, {
        method: 'POST',
        body: JSON.stringify({ name: `Pet ${j}`, categoryId: 1, status: 'available' }),
      })
  }
  const afterCreating = await used()
  await sandbox.close()
  process.stdout.write(
    `${JSON.stringify({
      sessions: count,
      basePets: 1000,
      bytesPerReadOnlySession: Math.round((afterReading - before) / count),
      createdPerSession: created,
      bytesPerSessionWithCreatedPets: Math.round((afterCreating - before) / count),
    })}\n`,
  )
} finally {
  probe.disconnect()
  await server.stop()
}
