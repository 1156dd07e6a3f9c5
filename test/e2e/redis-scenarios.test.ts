import { expect, it } from 'vitest'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// A scenario set through one replica's admin API holds on every replica (docs/decisions.md#d29).
const { call, admin } = useRedisReplicas(2, ['--pets', '3'])
const FREE = 'sandbox-free-key'

/** Calls replica `index` until `key` gets `status`: the other replicas take a change up within a second. */
async function until(index: number, key: string, status: number): Promise<Response> {
  for (;;) {
    const response = await call(index, '/pets?limit=1', { key })
    if (response.status === status) return response
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

it('holds a scenario set through one replica on the other, for that key only, and clears it everywhere', async () => {
  expect((await admin(0, `/keys/${FREE}/scenario`, { method: 'PUT', json: { name: 'down' } })).status).toBe(200)
  expect((await call(0, '/pets?limit=1', { key: FREE })).status).toBe(503)
  const other = await until(1, FREE, 503)
  expect(other.headers.get('x-sandbox-scenario')).toBe('down')
  expect((await call(1, '/pets?limit=1')).status).toBe(200)
  const state = await (await admin(1, '/state')).json()
  expect(state.keys.find((key: { key: string }) => key.key === FREE).scenario).toBe('down')

  expect((await admin(1, `/keys/${FREE}/scenario`, { method: 'DELETE' })).status).toBe(200)
  expect((await call(1, '/pets?limit=1', { key: FREE })).status).toBe(200)
  await until(0, FREE, 200)
})

it('rate-limited on replicas: the 429 of a spent window on both, and the shared quota untouched', async () => {
  await admin(1, `/keys/${FREE}/scenario`, { method: 'PUT', json: { name: 'rate-limited' } })
  // Until replica 0 takes the change up, its answers are ordinary ones and spend quota.
  await until(0, FREE, 429)
  const before = (await (await admin(0, `/keys/${FREE}`)).json()).quota
  for (let i = 0; i < 12; i++) expect((await call(i % 2, '/pets?limit=1', { key: FREE })).status).toBe(429)
  const after = (await (await admin(1, `/keys/${FREE}`)).json()).quota
  expect(after.minute.used).toBe(before.minute.used)
  expect(after.banned).toBe(false)
  await admin(0, `/keys/${FREE}/scenario`, { method: 'DELETE' })
})
