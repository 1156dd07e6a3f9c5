import { expect, it } from 'vitest'
import { ConfigError, type Pet } from '../../src/index.js'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

// 2030-01-01T09:30:15Z, held still: the sandbox clock follows `time`.
const START = Date.UTC(2030, 0, 1, 9, 30, 15)
const time = START
const { api, sandbox } = useInProcessSandbox({ pets: 5, now: () => time, banSeconds: 300 })
const json = { 'content-type': 'application/json' }

it('replaces a stored pet with put, and the API answers with the replacement', async () => {
  const stored = await sandbox.pets.put({ id: 2, name: 'Replaced', categoryId: 7 })
  expect(stored).toEqual({ id: 2, name: 'Replaced', categoryId: 7 })
  expect(sandbox.pets.get(2)).toEqual({ id: 2, name: 'Replaced', categoryId: 7 })
  expect(await (await api('/pets/2')).json()).toEqual({ id: 2, name: 'Replaced', categoryId: 7 })
  expect(sandbox.pets.all().map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5])
})

it('adds a pet under a higher id with put, and later creates continue after it', async () => {
  await sandbox.pets.put({ id: 40, name: 'Forty', categoryId: 1, status: 'pending' })
  const listed = (await (await api('/pets?status=pending&limit=100')).json()) as Array<{ id: number }>
  expect(listed.at(-1)).toEqual({ id: 40, name: 'Forty', categoryId: 1, status: 'pending' })
  const created = await api('/pets', { method: 'POST', headers: json, body: '{"name":"Next","categoryId":1}' })
  expect(((await created.json()) as { id: number }).id).toBe(41)
  expect(sandbox.pets.all().map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5, 40, 41])
})

it('rejects an arranged pet the store cannot hold, naming the field, and stores nothing', async () => {
  const before = sandbox.pets.all()
  await expect(sandbox.pets.create({ name: '', categoryId: 1 })).rejects.toThrow(
    'name must be 1 to 200 characters (Unicode code points) as sent',
  )
  // A misspelt field is refused as the admin API refuses one, not stored beside the pet.
  await expect(sandbox.pets.put({ id: 3, name: 'Ace', categoryId: 1, stauts: 'sold' } as Pet)).rejects.toThrow(
    'stauts: unknown field; did you mean status?',
  )
  await expect(sandbox.pets.put({ id: 0, name: 'Zero', categoryId: 1 })).rejects.toThrow('id must be at least 1')
  await expect(sandbox.pets.put({ id: 3, name: 'Odd', categoryId: 1, status: 'adopted' as 'sold' })).rejects.toThrow(
    'status must be one of available, pending, sold',
  )
  expect(sandbox.pets.all()).toEqual(before)
})

it('creates a pet as POST /pets does: the name trimmed, the default status, the same refusal of a long name', async () => {
  const arranged = await sandbox.pets.create({ name: '  Biscuit  ', categoryId: 2 })
  const response = await api('/pets', { method: 'POST', headers: json, body: '{"name":"  Biscuit  ","categoryId":2}' })
  const posted = (await response.json()) as { id: number }
  expect(arranged).toEqual({ id: arranged.id, name: 'Biscuit', categoryId: 2, status: 'available' })
  expect(posted).toEqual({ ...arranged, id: arranged.id + 1 })
  const before = sandbox.pets.all()
  const long = `${'x'.repeat(201)}`
  await expect(sandbox.pets.create({ name: long, categoryId: 1 })).rejects.toThrow(
    new ConfigError(
      'name must be 1 to 200 characters (Unicode code points) as sent, at least one of them not white space',
    ),
  )
  await expect(sandbox.pets.create({ name: '   ', categoryId: 1 })).rejects.toThrow(
    new ConfigError(
      'name must be 1 to 200 characters (Unicode code points) as sent, at least one of them not white space',
    ),
  )
  const refused = await api('/pets', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: long, categoryId: 1 }),
  })
  expect(refused.status).toBe(400)
  expect(((await refused.json()) as { message: string }).message).toBe(
    'name must be 1 to 200 characters (Unicode code points) as sent, at least one of them not white space',
  )
  expect(sandbox.pets.all()).toEqual(before)
})

it('reads a key quota as the next response headers will show it', async () => {
  const fresh = sandbox.quota.get('sandbox-free-key')
  expect(fresh).toMatchObject({ limit: 60, remaining: 60, reset: Date.UTC(2030, 0, 1, 9, 31) / 1000, banned: false })
  const response = await api('/pets')
  expect(response.headers.get('x-ratelimit-remaining')).toBe('59')
  expect(sandbox.quota.get('sandbox-free-key')).toMatchObject({
    remaining: 59,
    minute: { used: 1 },
    day: { used: 1, remaining: 999 },
  })
})

it('reports the day window once it binds', async () => {
  sandbox.quota.set('sandbox-free-key', { dayRemaining: 4 })
  const state = sandbox.quota.get('sandbox-free-key')
  expect(state).toMatchObject({ limit: 1000, remaining: 4, reset: Date.UTC(2030, 0, 2) / 1000 })
  expect((await api('/pets')).headers.get('x-ratelimit-reset')).toBe(String(state.reset))
})

it('starts a ban for given seconds and reads its end, then lifts it', async () => {
  const banned = sandbox.quota.set('sandbox-free-key', { banned: 120 })
  expect(banned).toMatchObject({ banned: true, remaining: 0, reset: START / 1000 + 120, bannedUntil: START + 120_000 })
  const refused = await api('/pets')
  expect(refused.status).toBe(429)
  expect(refused.headers.get('retry-after')).toBe('120')
  expect(sandbox.quota.set('sandbox-free-key', { banned: false }).banned).toBe(false)
  expect((await api('/pets')).status).toBe(200)
})

it('rejects quota changes it could only misread, and unknown keys', () => {
  expect(() => sandbox.quota.set('sandbox-free-key', { remaining: Number.NaN })).toThrow(
    'quota.remaining must be an integer',
  )
  expect(() => sandbox.quota.set('sandbox-free-key', { banned: -5 })).toThrow('quota.banned must be above 0')
  // JSON carries no Infinity, so no schema refuses it: checkInput does, for every library call.
  expect(() => sandbox.quota.set('sandbox-free-key', { banned: Number.POSITIVE_INFINITY })).toThrow(
    'quota.banned must be a finite number',
  )
  expect(() => sandbox.quota.get('no-such-key')).toThrow(ConfigError)
  expect(sandbox.quota.get('sandbox-free-key')).toMatchObject({ remaining: 60, banned: false })
})

it('spends the minute window, not the day, when remaining is set to 0 (D13)', async () => {
  const state = sandbox.quota.set('sandbox-free-key', { remaining: 0 })
  expect(state).toMatchObject({
    limit: 60,
    remaining: 0,
    reset: Date.UTC(2030, 0, 1, 9, 31) / 1000,
    day: { remaining: 1000 },
  })
  const refused = await api('/pets')
  expect(refused.status).toBe(429)
  expect(refused.headers.get('x-ratelimit-limit')).toBe('60')
  expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60)
  expect(refused.headers.get('x-ratelimit-reset')).toBe(String(state.reset))
})

it('keeps at least as much in the day as remaining asks for, and no less than it had', () => {
  sandbox.quota.set('sandbox-free-key', { dayRemaining: 3 })
  expect(sandbox.quota.set('sandbox-free-key', { remaining: 5 })).toMatchObject({
    minute: { remaining: 5 },
    day: { remaining: 5 },
  })
  expect(sandbox.quota.set('sandbox-free-key', { remaining: 2 })).toMatchObject({
    limit: 60,
    remaining: 2,
    day: { remaining: 5 },
  })
})

it('reads the same reset as the refusal tells the client once both windows are spent', async () => {
  const state = sandbox.quota.set('sandbox-free-key', { minuteRemaining: 0, dayRemaining: 0 })
  const refused = await api('/pets')
  expect(refused.status).toBe(429)
  expect(state).toMatchObject({ limit: 1000, remaining: 0, reset: Date.UTC(2030, 0, 2) / 1000, banned: false })
  expect(refused.headers.get('x-ratelimit-reset')).toBe(String(state.reset))
  expect(refused.headers.get('x-ratelimit-limit')).toBe('1000')
})

it('puts the clock back on its time source with reset({ clock: true }), and keeps it otherwise', async () => {
  sandbox.clock.advance(3_600_000)
  await sandbox.reset()
  expect(sandbox.clock.now()).toBe(START + 3_600_000)
  await sandbox.reset({ clock: true })
  expect(sandbox.clock.now()).toBe(START)
})
