import { expect, it } from 'vitest'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Keys added, re-planned and revoked through one replica's admin API hold on every replica, and
// outlive a restart as the pets do (docs/decisions.md#d22).
const { call, admin, replica, replace } = useRedisReplicas(2, ['--pets', '3'])

/** Calls replica `index` until `key` gets `status`: the other replicas take a change up within a second. */
async function until(index: number, key: string, status: number): Promise<Response> {
  for (;;) {
    const response = await call(index, '/pets?limit=1', { key })
    if (response.status === status) return response
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

it('serves a key added on one replica from the other, with its plan, and refuses it everywhere once revoked', async () => {
  const added = await admin(0, '/keys', { method: 'POST', json: { key: 'partner-key', plan: 'pro' } })
  expect(added.status).toBe(200)
  expect((await call(0, '/pets?limit=1', { key: 'partner-key' })).status).toBe(200)
  expect((await until(1, 'partner-key', 200)).headers.get('x-ratelimit-limit')).toBe('300')

  expect((await admin(1, '/keys/partner-key/plan', { method: 'PUT', json: { plan: 'business' } })).status).toBe(200)
  for (;;) {
    const response = await until(0, 'partner-key', 200)
    if (response.headers.get('x-ratelimit-limit') === '1000') break
  }
  const state = await (await admin(0, '/state')).json()
  expect(state.keys.find((key: { key: string }) => key.key === 'partner-key')).toMatchObject({
    plan: 'business',
    perMinute: 1000,
  })

  expect((await admin(0, '/keys/sandbox-free-key', { method: 'DELETE' })).status).toBe(200)
  await until(1, 'sandbox-free-key', 401)
  expect((await call(0, '/pets?limit=1', { key: 'sandbox-free-key' })).status).toBe(401)
})

it('keeps the keys when a replica restarts: they live in Redis with the pets', async () => {
  await replica(1).stop('SIGKILL')
  await replace(1)
  expect((await call(1, '/pets?limit=1', { key: 'partner-key' })).headers.get('x-ratelimit-limit')).toBe('1000')
  expect((await call(1, '/pets?limit=1', { key: 'sandbox-free-key' })).status).toBe(401)
  // A reset keeps them too: keys are configuration, not state.
  expect((await admin(1, '/reset', { method: 'POST' })).status).toBe(200)
  expect((await call(0, '/pets?limit=1', { key: 'partner-key' })).status).toBe(200)
})
