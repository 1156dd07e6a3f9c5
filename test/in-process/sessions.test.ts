import { expect, it } from 'vitest'
import { ConfigError, createSandbox, type Pet } from '../../src/index.js'
import { API, useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const drops: string[] = []
const { sandbox, api } = useInProcessSandbox({
  pets: 10,
  maxPets: 14,
  sessions: { max: 3, idleMs: 60_000, onDrop: (name, reason) => drops.push(`${name}:${reason.kind}`) },
})

const json = (body: unknown, session?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(session === undefined ? {} : { 'x-sandbox-session': session }) },
  body: JSON.stringify(body),
})
const inSession = (session: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...init.headers, 'x-sandbox-session': session },
})
const names = async (response: Response) => ((await response.json()) as Pet[]).map((pet) => `${pet.id}:${pet.name}`)

it('keeps each session its own pets and ids over the same start-up pets, and the default session untouched', async () => {
  const before = await names(await api('/pets'))
  const created = await api('/pets', json({ name: 'Only in a', categoryId: 1 }, 'worker-a'))
  expect(created.status).toBe(201)
  expect(created.headers.get('x-sandbox-session')).toBe('worker-a')
  expect((await created.json()).id).toBe(11)
  const inB = await api('/pets', json({ name: 'Only in b', categoryId: 1 }, 'worker-b'))
  expect((await inB.json()).id).toBe(11)

  const listedA = await api('/pets', inSession('worker-a'))
  expect(await names(listedA)).toEqual([...before, '11:Only in a'])
  expect(await names(await api('/pets', inSession('worker-b')))).toEqual([...before, '11:Only in b'])
  const listedDefault = await api('/pets')
  // The default session's answers are today's: no session header.
  expect(listedDefault.headers.get('x-sandbox-session')).toBeNull()
  expect(await names(listedDefault)).toEqual(before)
  expect((await api('/pets/11', inSession('worker-a'))).status).toBe(200)
  expect((await api('/pets/11')).status).toBe(404)
  // `default` names the default session.
  expect(await names(await api('/pets', inSession('default')))).toEqual(before)
})

it('merges a session’s replaced pets into its listings in id order, by status, and leaves the base alone', async () => {
  const worker = sandbox.session('merge')
  await worker.pets.put({ id: 3, name: 'Three', categoryId: 1, status: 'sold' })
  await worker.pets.put({ id: 1, name: 'One', categoryId: 1, status: 'pending' })
  await worker.pets.create({ name: 'Eleven', categoryId: 2, status: 'sold' })
  const all = worker.pets.all()
  expect(all.map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
  expect(all[0]).toEqual({ id: 1, name: 'One', categoryId: 1, status: 'pending' })
  const sold = (await (
    await worker.fetch(`${API}/pets?status=sold&limit=100`, { headers: { authorization: 'Bearer sandbox-free-key' } })
  ).json()) as Pet[]
  expect(sold.map((pet) => pet.id)).toEqual(all.filter((pet) => pet.status === 'sold').map((pet) => pet.id))
  expect(sold.some((pet) => pet.id === 3 && pet.name === 'Three')).toBe(true)
  const firstTwo = (await (
    await worker.fetch(`${API}/pets?limit=2`, { headers: { authorization: 'Bearer sandbox-free-key' } })
  ).json()) as Pet[]
  expect(firstTwo.map((pet) => pet.name)).toEqual(['One', all[1]!.name])
  expect(sandbox.pets.get(1)?.name).not.toBe('One')
  expect(worker.pets.get(3)?.name).toBe('Three')
  await worker.reset()
  expect(worker.pets.all()).toEqual(sandbox.pets.all())
})

it('refuses a bad session name with 400 naming the rule, as the pipeline refuses, and makes nothing of it', async () => {
  for (const bad of ['', '.hidden', '-dash', 'a b', 'x'.repeat(65), 'ünïcode', 'a,b']) {
    const response = await api('/pets', inSession(bad))
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body).toEqual({
      code: 'invalid_request',
      status: 400,
      message: "X-Sandbox-Session must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'",
    })
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('x-sandbox-session')).toBeNull()
  }
  // A repeated header reads as one value joined with a comma: refused too.
  const headers = new Headers({ authorization: 'Bearer sandbox-free-key' })
  headers.append('x-sandbox-session', 'one')
  headers.append('x-sandbox-session', 'two')
  expect((await fetch(`${API}/pets`, { headers })).status).toBe(400)
  expect((await sandbox.sessions.list()).map((session) => session.name)).not.toContain('one')
  expect(() => sandbox.session('.bad')).toThrow(ConfigError)
  expect(() => sandbox.session('.bad')).toThrow(
    "session name must be 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'",
  )
  expect((await api('/pets', inSession('x'.repeat(64)))).status).toBe(200)
})

it('keeps each session its own clock, key quotas, faults and scenarios', async () => {
  const late = sandbox.session('late')
  late.clock.set('2030-12-05T00:00:00Z')
  expect((await api('/pets/1', inSession('late'))).status).toBe(410)
  expect((await api('/pets/1', inSession('early'))).status).toBe(200)
  expect((await api('/pets/1')).status).toBe(200)

  const spent = sandbox.session('spent')
  spent.quota.set('sandbox-free-key', { remaining: 0 })
  expect((await api('/pets', inSession('spent'))).status).toBe(429)
  expect((await api('/pets')).status).toBe(200)
  expect(sandbox.quota.get('sandbox-free-key').minute.used).toBe(2)

  const faulty = sandbox.session('faulty')
  faulty.faults.set({ errorRate: 1, kinds: ['503'] })
  expect((await api('/pets', inSession('faulty'))).status).toBe(503)
  expect((await api('/pets')).status).toBe(200)
  expect(sandbox.faults.get().errorRate).toBe(0)

  await sandbox.session('down').scenarios.set('sandbox-free-key', 'down')
  const down = await api('/pets', inSession('down'))
  expect(down.status).toBe(503)
  expect(down.headers.get('x-sandbox-scenario')).toBe('down')
  expect(sandbox.scenarios.get('sandbox-free-key')).toBeUndefined()
  expect((await api('/pets')).status).toBe(200)
})

it('counts requests without a key per address once for every session', async () => {
  const first = await api('/pets', { key: null, ...inSession('addr-a') })
  const second = await api('/pets', { key: null, ...inSession('addr-b') })
  expect(first.status).toBe(401)
  expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
    Number(first.headers.get('x-ratelimit-remaining')) - 1,
  )
})

it('logs each session’s requests apart, and a session’s reset forgets its own only', async () => {
  await api('/pets?limit=1')
  await api('/pets?limit=2', inSession('logged'))
  const logged = sandbox.session('logged')
  expect(logged.requests().map((entry) => [entry.path, entry.session])).toEqual([['/v1/pets?limit=2', 'logged']])
  expect(sandbox.requests().map((entry) => entry.path)).toEqual(['/v1/pets?limit=1'])
  expect(logged.har().log.entries.map((entry) => entry._session)).toEqual(['logged'])
  await logged.reset()
  expect(logged.requests()).toEqual([])
  expect(sandbox.requests()).toHaveLength(1)
  // The default session's reset no longer empties the other sessions' entries.
  await api('/pets?limit=3', inSession('logged'))
  await sandbox.reset()
  expect(logged.requests()).toHaveLength(1)
})

it('sends the session header from a session’s fetch, and hears its requests only', async () => {
  const heard: string[] = []
  const worker = sandbox.session('heard')
  const stop = worker.onRequest((entry) => heard.push(entry.path))
  await worker.fetch(`${API}/pets?limit=4`, { headers: { authorization: 'Bearer sandbox-free-key' } })
  await api('/pets?limit=5')
  stop()
  expect(heard).toEqual(['/v1/pets?limit=4'])
  expect((await worker.state()).session).toBe('heard')
  expect((await sandbox.state()).session).toBe('default')
})

it('lists, forks and deletes sessions; a fork starts from its source as it was and goes its own way', async () => {
  const source = sandbox.session('source')
  await source.pets.create({ name: 'Made in source', categoryId: 1 })
  source.clock.set('2031-01-01T00:00:00Z')
  source.quota.set('sandbox-pro-key', { remaining: 7 })
  const fork = await sandbox.sessions.put('fork', { from: 'source' })
  expect(fork).toMatchObject({ name: 'fork', origin: 'fork', from: 'source', pets: { count: 11, nextId: 12 } })
  const forked = sandbox.session('fork')
  expect(forked.pets.get(11)?.name).toBe('Made in source')
  expect(forked.quota.get('sandbox-pro-key').remaining).toBe(7)
  expect(forked.clock.now()).toBeGreaterThanOrEqual(Date.parse('2031-01-01T00:00:00Z'))
  await forked.pets.create({ name: 'Made in fork', categoryId: 1 })
  expect(source.pets.get(12)).toBeUndefined()
  // A fork's reset returns to the source as it was at the fork.
  await forked.reset()
  expect(
    forked.pets
      .all()
      .map((pet) => pet.name)
      .at(-1),
  ).toBe('Made in source')
  expect(forked.pets.get(12)).toBeUndefined()

  const listed = await sandbox.sessions.list()
  expect(listed[0]?.name).toBe('default')
  expect(listed[1]?.name).toBe('fork')
  await expect(sandbox.sessions.put('other', { from: 'nowhere' })).rejects.toThrow('from: no session "nowhere"')
  expect(await sandbox.sessions.delete('fork')).toBe(true)
  expect(await sandbox.sessions.delete('fork')).toBe(false)
  await expect(sandbox.sessions.delete('default')).rejects.toThrow(ConfigError)
})

it('drops the least recently used session beyond max, and one idle by the default session’s clock', async () => {
  for (const name of (await sandbox.sessions.list()).slice(1)) await sandbox.sessions.delete(name.name)
  drops.length = 0
  for (const name of ['s1', 's2', 's3']) await api('/pets?limit=1', inSession(name))
  await api('/pets?limit=1', inSession('s1'))
  await api('/pets?limit=1', inSession('s4'))
  expect(drops).toEqual(['s2:least-recently-used'])
  expect((await sandbox.sessions.list()).map((session) => session.name)).toEqual(['default', 's4', 's1', 's3'])
  // Another session's clock does not expire anything; the default session's does.
  sandbox.session('s3').clock.advance(3_600_000)
  expect((await sandbox.sessions.list()).length).toBe(4)
  sandbox.clock.advance(61_000)
  await api('/pets?limit=1', inSession('s4'))
  expect((await sandbox.sessions.list()).map((session) => session.name)).toEqual(['default', 's4'])
  // s4 too was idle for 61 s when the request came: it starts over.
  expect(drops.slice(1).sort()).toEqual(['s1:idle', 's3:idle', 's4:idle'])
})

it('bounds the pets of every session together by maxPets, and gives a reset session’s pets back', async () => {
  for (const name of (await sandbox.sessions.list()).slice(1)) await sandbox.sessions.delete(name.name)
  const a = sandbox.session('pool-a')
  const b = sandbox.session('pool-b')
  await a.pets.create({ name: 'a1', categoryId: 1 })
  await a.pets.create({ name: 'a2', categoryId: 1 })
  await b.pets.create({ name: 'b1', categoryId: 1 })
  await sandbox.pets.create({ name: 'd1', categoryId: 1 })
  const full = await api('/pets', json({ name: 'one too many', categoryId: 1 }, 'pool-b'))
  expect(full.status).toBe(507)
  expect((await full.json()).code).toBe('storage_full')
  await a.reset()
  expect((await api('/pets', json({ name: 'fits again', categoryId: 1 }, 'pool-b'))).status).toBe(201)
  await sandbox.sessions.delete('pool-b')
  expect((await api('/pets', json({ name: 'and again', categoryId: 1 }, 'pool-a'))).status).toBe(201)
})

it('reads a key named like an Object member as in no scenario', async () => {
  const odd = createSandbox({
    keys: [
      { key: 'constructor', plan: 'free' },
      { key: '__proto__x', plan: 'free' },
    ],
  })
  expect(odd.scenarios.get('constructor')).toBeUndefined()
  expect(odd.scenarios.get('toString')).toBeUndefined()
  await odd.scenarios.set('constructor', 'down')
  expect(odd.scenarios.get('constructor')).toBe('down')
  await odd.scenarios.clear('constructor')
  expect(odd.scenarios.get('constructor')).toBeUndefined()
})

it('checks the sessions option when the sandbox is made', () => {
  expect(() => createSandbox({ sessions: { max: 0 } })).toThrow(
    'sessions.max must be a whole number from 1 to 100000, got 0',
  )
  expect(() => createSandbox({ sessions: { idleMs: -1 } })).toThrow(
    'sessions.idleMs must be a whole number of ms, 1 or more, got -1',
  )
  expect(() => createSandbox({ startAt: 'soon' })).toThrow('startAt must be an instant')
  const started = createSandbox({ startAt: '2030-01-01T00:00:00Z' })
  expect(started.clock.now()).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00Z'))
  expect(started.session('fresh').clock.now()).toBeLessThan(Date.parse('2030-01-01T00:01:00Z'))
})

it('replaces the default session in place: a fork becomes what its reset returns to', async () => {
  const own = createSandbox({ pets: 3 })
  await own.ready()
  await own.session('arranged').pets.create({ name: 'Arranged', categoryId: 1 })
  const replaced = await own.sessions.put('default', { from: 'arranged' })
  expect(replaced).toMatchObject({ name: 'default', origin: 'fork', from: 'arranged', pets: { count: 4, nextId: 5 } })
  await own.pets.create({ name: 'Later', categoryId: 1 })
  await own.reset()
  expect(
    own.pets
      .all()
      .map((pet) => pet.name)
      .at(-1),
  ).toBe('Arranged')
  await own.sessions.put('default', {})
  expect(own.pets.all()).toHaveLength(3)
})

it('keeps the default session’s journal to the start-up world: a fork cannot replace it under storage', async () => {
  const commits: string[] = []
  const own = createSandbox({
    pets: 2,
    storage: { restored: [], nextId: 3, commit: async (change) => void commits.push(change.kind) },
  })
  await own.ready()
  await own.session('elsewhere').pets.create({ name: 'Elsewhere', categoryId: 1 })
  await expect(own.sessions.put('default', { from: 'elsewhere' })).rejects.toThrow(
    'with --state the default session starts over only from the start-up world',
  )
  await own.sessions.put('default', {})
  expect(commits).toEqual(['reset'])
})

it('deletes every named session at once, or those of one prefix, and leaves the default session as it is', async () => {
  await sandbox.pets.create({ name: 'Stays', categoryId: 1 })
  for (const name of ['run-a-1', 'run-a-2', 'run-b-1'])
    await sandbox.session(name).pets.create({ name: `In ${name}`, categoryId: 1 })
  expect((await sandbox.sessions.deleteAll({ prefix: 'run-a-' })).sort()).toEqual(['run-a-1', 'run-a-2'])
  expect((await sandbox.sessions.list()).map((session) => session.name)).toEqual(['default', 'run-b-1'])
  expect(await sandbox.sessions.deleteAll()).toEqual(['run-b-1'])
  expect(await sandbox.sessions.deleteAll()).toEqual([])
  expect(sandbox.pets.all().map((pet) => pet.name)).toContain('Stays')
  // Named again, a deleted session starts afresh.
  expect(
    sandbox
      .session('run-a-1')
      .pets.all()
      .map((pet) => pet.name),
  ).not.toContain('In run-a-1')
  await sandbox.reset()
  await sandbox.sessions.deleteAll()
})
