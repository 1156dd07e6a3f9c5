import { expect, it } from 'vitest'
import { ConfigError, createSandbox, type Pet } from '../../src/index.js'
import { API, useInProcessSandbox } from '../support/use-in-process-sandbox.js'

// Keys bound to a session in-process (D46): `sandbox.session(name).keys`, as the admin API's
// POST /__sandbox/sessions/{name}/keys; requests through msw, every answer held to the contract.
const drops: string[] = []
const { sandbox, api } = useInProcessSandbox({
  pets: 3,
  sessions: { max: 2, idleMs: 60_000, onDrop: (name, reason) => drops.push(`${name}:${reason.kind}`) },
})

const names = async (response: Response) => ((await response.json()) as Pet[]).map((pet) => pet.name)
const create = (key: string, name: string) =>
  api('/pets', {
    key,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

it('binds a key to a session: its requests are in it with no header, listed by keys.list and the summary', async () => {
  const session = sandbox.session('lib-a')
  const bound = await session.keys.add({ plan: 'free' })
  expect(bound).toMatchObject({ plan: 'free', perMinute: 60, perDay: 1000, session: 'lib-a' })
  expect(await session.keys.list()).toEqual([bound])
  expect((await sandbox.sessions.get('lib-a'))?.keys).toEqual([
    { key: bound.key, masked: expect.stringMatching(/^sbk_…#/), plan: 'free', perMinute: 60, perDay: 1000 },
  ])
  expect((await create(bound.key, 'Bound')).headers.get('x-sandbox-session')).toBe('lib-a')
  expect(session.pets.all().map((pet) => pet.name)).toContain('Bound')
  expect(sandbox.pets.all().map((pet) => pet.name)).not.toContain('Bound')
  // Its quota is the session's to read and arrange, at once in memory; no key of the sandbox may equal it.
  expect(session.quota.get(bound.key)).toMatchObject({ limit: 60, remaining: 59 })
  expect(session.quota.set(bound.key, { remaining: 3 })).toMatchObject({ remaining: 3 })
  expect(() => sandbox.quota.get(bound.key)).toThrow(ConfigError)
  await expect(sandbox.apiKeys.add({ key: bound.key, plan: 'pro' })).rejects.toThrow(/bound to a session/)
  // Masked as every key: the library's secrets hold it.
  expect(sandbox.secrets().keys).toContain(bound.key)
  expect(JSON.stringify(session.requests())).not.toContain(bound.key)
  // The same refusals as the admin API, in the same words.
  await expect(sandbox.session('lib-a').keys.add({ plan: 'gold' } as never)).rejects.toThrow(ConfigError)
  await expect(sandbox.session('default').keys.add({ plan: 'pro' })).rejects.toThrow(
    /default session takes no bound keys/,
  )
  // Refused with a header naming another session.
  const refused = await api('/pets', { key: bound.key, headers: { 'x-sandbox-session': 'lib-b' } })
  expect(refused.status).toBe(400)
  expect(((await refused.json()) as { message: string }).message).toMatch(/"lib-a".*"lib-b"/)
})

it('keeps a bound key through a reset, copies none into a fork, and lets it go with a dropped session', async () => {
  await sandbox.sessions.deleteAll()
  drops.length = 0
  const bound = await sandbox.session('kept').keys.add({ plan: 'pro' })
  await create(bound.key, 'Before reset')
  await sandbox.session('kept').reset()
  const afterReset = await api('/pets', { key: bound.key })
  expect(afterReset.status).toBe(200)
  expect(await names(afterReset)).not.toContain('Before reset')
  expect((await sandbox.sessions.put('forked', { from: 'kept' })).keys).toEqual([])
  // Two sessions at most: a third drops the least recently used, and its key with it.
  sandbox.session('third')
  expect(drops).toEqual(['kept:least-recently-used'])
  expect((await api('/pets', { key: bound.key })).status).toBe(401)
  expect(await sandbox.sessions.get('kept')).toBeUndefined()
  // Idle past idleMs on the default session's clock: dropped, and its key with it.
  const idle = await sandbox.session('idle').keys.add({ plan: 'pro' })
  sandbox.clock.advance(61_000)
  expect((await api('/pets', { key: idle.key })).status).toBe(401)
  expect(drops).toContain('idle:idle')
  expect(await sandbox.sessions.get('idle')).toBeUndefined()
})

it('carries bound keys in a capsule into another sandbox, and refuses one bound elsewhere with a SessionConflict', async () => {
  await sandbox.sessions.deleteAll()
  const bound = await sandbox.session('carried').keys.add({ plan: 'business' })
  await create(bound.key, 'Carried')
  const capsule = await sandbox.session('carried').capsule()
  expect(capsule.boundKeys).toEqual([{ key: bound.key, plan: 'business', perMinute: 1000, perDay: 100000 }])
  await expect(sandbox.sessions.put('copy', { capsule })).rejects.toThrow(/bound to session "carried"/)
  expect(await sandbox.sessions.get('copy')).toBeUndefined()

  const replay = createSandbox({ pets: 3, baseUrl: API })
  expect((await replay.sessions.put('replay', { capsule })).keys.map((key) => key.key)).toEqual([bound.key])
  const served = await replay.fetch(`${API}/pets`, { headers: { authorization: `Bearer ${bound.key}` } })
  expect(served.headers.get('x-sandbox-session')).toBe('replay')
  expect(await names(served)).toContain('Carried')
  // A capsule's bound key that is a key of the sandbox is refused, naming the field.
  const clash = { ...capsule, quotas: {}, boundKeys: [{ key: 'sandbox-free-key', plan: 'free' as const }] }
  await expect(replay.sessions.put('clash', { capsule: clash })).rejects.toThrow(/boundKeys\[0\]/)
})
