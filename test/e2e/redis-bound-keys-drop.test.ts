import { expect, it } from 'vitest'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// A bound key dropped with its session (D46) on Redis: beyond --max-sessions through one replica,
// refused through both, and its session not made again by the refused requests.
const { call, admin } = useRedisReplicas(2, ['--pets', '5', '--max-sessions', '1'])

it('refuses on both replicas a key whose session one replica dropped as least recently used', async () => {
  const made = await admin(0, '/sessions/r-drop-a/keys', { method: 'POST', json: { plan: 'pro' } })
  expect(made.status).toBe(201)
  const { key } = (await made.json()) as { key: string }
  for (const replica of [0, 1]) expect((await call(replica, '/pets', { key })).status).toBe(200)
  // A second session, through the other replica: the first is the least recently used, and goes.
  expect((await call(1, '/pets', { headers: { 'x-sandbox-session': 'r-drop-b' } })).status).toBe(200)
  for (const replica of [1, 0]) {
    const refused = await call(replica, '/pets', { key })
    expect(refused.status).toBe(401)
    // Answered in no session, as in memory.
    expect(refused.headers.get('x-sandbox-session')).toBeNull()
  }
  const listed = (await (await admin(0, '/sessions')).json()) as { sessions: Array<{ name: string }> }
  expect(listed.sessions.map((session) => session.name)).toEqual(['default', 'r-drop-b'])
})
