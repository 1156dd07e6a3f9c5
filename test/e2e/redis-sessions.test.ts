import { expect, it } from 'vitest'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// On a shared Redis state the default session is served as before; named sessions are not kept
// there yet, and a request naming one is a clear 501, never another 5xx (docs/decisions.md#d34).
const { call, admin, replica } = useRedisReplicas(1, ['--pets', '3'])

it('answers a named session 501 not_implemented on --redis, and serves the default session as before', async () => {
  const named = await call(0, '/pets', { headers: { 'x-sandbox-session': 'worker-1' } })
  expect(named.status).toBe(501)
  expect(await named.json()).toMatchObject({ code: 'not_implemented', message: expect.stringContaining('--redis') })
  expect(named.headers.get('x-ratelimit-remaining')).not.toBeNull()
  expect((await call(0, '/pets', { headers: { 'x-sandbox-session': 'default' } })).status).toBe(200)
  expect((await call(0, '/pets', { headers: { 'x-sandbox-session': '.bad' } })).status).toBe(400)
  expect((await call(0, '/pets')).status).toBe(200)

  expect((await admin(0, '/state', { headers: { 'x-sandbox-session': 'worker-1' } })).status).toBe(501)
  expect((await admin(0, '/sessions/worker-1', { method: 'PUT', json: {} })).status).toBe(501)
  expect((await admin(0, '/sessions/fork', { method: 'PUT', json: { from: 'default' } })).status).toBe(501)
  const listed = await (await admin(0, '/sessions')).json()
  expect(listed.sessions.map((session: { name: string }) => session.name)).toEqual(['default'])
  const capsule = await admin(0, '/sessions/default/capsule')
  expect(capsule.status).toBe(200)
  expect((await capsule.json()).pets).toHaveLength(3)
  expect(replica(0).output()).toContain('Sessions: the default one only on --redis')
})
