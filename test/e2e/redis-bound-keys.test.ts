import { expect, it } from 'vitest'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// Keys bound to a session (D46) across two replicas sharing one real Redis: made through one,
// used through the other; gone through one, gone for both at their next request.
const { call, admin } = useRedisReplicas(2, ['--pets', '5'])

interface BoundKey {
  key: string
  session: string
}

async function bind(replica: number, session: string): Promise<BoundKey> {
  const response = await admin(replica, `/sessions/${session}/keys`, { method: 'POST', json: { plan: 'pro' } })
  expect(response.status).toBe(201)
  return (await response.json()) as BoundKey
}

const names = async (response: Response) => ((await response.json()) as Array<{ name: string }>).map((pet) => pet.name)
const create = (replica: number, key: string, name: string) =>
  call(replica, '/pets', {
    key,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

it('serves a key bound through one replica on the other, in its session, and lists it on both', async () => {
  const [one, two] = [await bind(0, 'r-iso-1'), await bind(1, 'r-iso-2')]
  expect((await create(1, one.key, 'one’s pet')).headers.get('x-sandbox-session')).toBe('r-iso-1')
  expect((await create(0, two.key, 'two’s pet')).status).toBe(201)
  for (const replica of [0, 1]) {
    expect(await names(await call(replica, '/pets?limit=100', { key: one.key }))).toContain('one’s pet')
    expect(await names(await call(replica, '/pets?limit=100', { key: one.key }))).not.toContain('two’s pet')
    expect(await names(await call(replica, '/pets?limit=100'))).not.toContain('one’s pet')
    const summary = (await (await admin(replica, '/sessions/r-iso-1')).json()) as { keys: Array<{ key: string }> }
    expect(summary.keys.map((key) => key.key)).toEqual([one.key])
  }
  // A key's quota reads through either replica in its session only, the one that never met the key first.
  const three = await bind(0, 'r-iso-3')
  expect((await call(0, '/pets', { key: three.key })).status).toBe(200)
  const quotaPath = `/keys/${encodeURIComponent(three.key)}`
  for (const replica of [1, 0]) {
    const read = await admin(replica, quotaPath, { headers: { 'x-sandbox-session': 'r-iso-3' } })
    expect(read.status).toBe(200)
    expect(((await read.json()) as { quota: { minute: { used: number } } }).quota.minute.used).toBe(1)
    expect((await admin(replica, quotaPath)).status).toBe(404)
  }
  const added = await admin(0, '/keys', { method: 'POST', json: { key: one.key, plan: 'pro' } })
  expect(added.status).toBe(400)
  // A reset through either keeps it; a contradicting header is refused on both.
  expect((await admin(1, '/reset', { method: 'POST', headers: { 'x-sandbox-session': 'r-iso-1' } })).status).toBe(200)
  const reset = await call(0, '/pets?limit=100', { key: one.key })
  expect(reset.status).toBe(200)
  expect(await names(reset)).not.toContain('one’s pet')
  const refused = await call(1, '/pets', { key: one.key, headers: { 'x-sandbox-session': 'r-iso-2' } })
  expect(refused.status).toBe(400)
  // Masked in the shared log, whichever replica answered.
  for (const replica of [0, 1]) {
    const listed = () =>
      admin(replica, '/requests', { headers: { 'x-sandbox-session': 'r-iso-1' } }).then((r) => r.text())
    // The shared log takes an entry without waiting: read until the last one is there.
    await expect.poll(listed).toContain('"status":400')
    expect(await listed()).toContain('sbk_…#')
    expect(await listed()).not.toContain(one.key)
  }
})

it('refuses a bound key on every replica once its session is deleted or replaced through one', async () => {
  const deleted = await bind(0, 'r-gone-deleted')
  // Both replicas met it: each knows where it goes.
  for (const replica of [0, 1]) expect((await call(replica, '/pets', { key: deleted.key })).status).toBe(200)
  expect((await admin(1, '/sessions/r-gone-deleted', { method: 'DELETE' })).status).toBe(200)
  for (const replica of [0, 1]) expect((await call(replica, '/pets', { key: deleted.key })).status).toBe(401)
  // The refused requests made no session of that name again.
  expect((await admin(0, '/sessions/r-gone-deleted')).status).toBe(404)

  const replaced = await bind(1, 'r-gone-replaced')
  for (const replica of [0, 1]) expect((await call(replica, '/pets', { key: replaced.key })).status).toBe(200)
  expect((await admin(0, '/sessions/r-gone-replaced', { method: 'PUT', json: {} })).status).toBe(200)
  for (const replica of [1, 0]) expect((await call(replica, '/pets', { key: replaced.key })).status).toBe(401)
})

it('carries a bound key in a capsule from one replica to the other, 409 while its session lives', async () => {
  const bound = await bind(0, 'r-capsule')
  expect((await create(0, bound.key, 'carried')).status).toBe(201)
  const capsule = await (await admin(0, '/sessions/r-capsule/capsule')).json()
  expect((await admin(1, '/sessions/r-copy', { method: 'PUT', json: { capsule } })).status).toBe(409)
  expect((await admin(1, '/sessions/r-capsule', { method: 'DELETE' })).status).toBe(200)
  expect((await call(0, '/pets', { key: bound.key })).status).toBe(401)
  expect((await admin(1, '/sessions/r-copy', { method: 'PUT', json: { capsule } })).status).toBe(200)
  for (const replica of [0, 1]) {
    const served = await call(replica, '/pets?limit=100', { key: bound.key })
    expect(served.headers.get('x-sandbox-session')).toBe('r-copy')
    expect(await names(served)).toContain('carried')
  }
})
