import { expect, it } from 'vitest'
import { ConfigError, createSandbox, type ScenarioName } from '../../src/index.js'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const slept: number[] = []
const { sandbox, api } = useInProcessSandbox({
  pets: 5,
  adminToken: 'admin-token-for-tests',
  // A scenario's latency is waited out with this instead of a real timer: the tests record it.
  sleep: async (ms) => {
    slept.push(ms)
  },
  scenarios: {
    custom: {
      'slow-creates': { description: 'creates take 2 s', operations: { createPet: { latency: 2000, status: 507 } } },
    },
  },
})

const FREE = 'sandbox-free-key'
const PRO = 'sandbox-pro-key'
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

it('empty: listPets answers [] and getPet 404 for that key only; creates still work', async () => {
  await sandbox.scenarios.set(FREE, 'empty')
  const listed = await api('/pets')
  expect(listed.status).toBe(200)
  expect(await listed.json()).toEqual([])
  expect(listed.headers.get('x-sandbox-scenario')).toBe('empty')
  expect(listed.headers.get('x-ratelimit-remaining')).not.toBeNull()
  const missing = await api('/pets/1')
  expect(missing.status).toBe(404)
  expect((await missing.json()).code).toBe('not_found')
  expect((await api('/pets', json({ name: 'Biscuit', categoryId: 2 }))).status).toBe(201)
  // An invalid listing is still refused as the contract says.
  expect((await api('/pets?limit=0')).status).toBe(400)
  expect(((await (await api('/pets', { key: PRO })).json()) as unknown[]).length).toBe(6)
})

it('slow: every answer arrives 1 to 3 s late, whole, waited out through the sandbox delay', async () => {
  await sandbox.scenarios.set(FREE, 'slow')
  slept.length = 0
  for (let i = 0; i < 6; i++) expect((await api('/pets?limit=2')).status).toBe(200)
  expect(slept).toHaveLength(6)
  expect(slept.every((ms) => ms >= 1000 && ms <= 3000)).toBe(true)
  expect(new Set(slept).size).toBeGreaterThan(1)
  await api('/pets', { key: PRO })
  expect(slept).toHaveLength(6)
})

it('flaky: about one answer in three is a 500 or 503 Error body, the same ones after a reset', async () => {
  const outcomes = async () => {
    await sandbox.scenarios.set(FREE, 'flaky')
    const statuses: number[] = []
    for (let i = 0; i < 60; i++) statuses.push((await api('/pets?limit=1', { key: FREE })).status)
    return statuses
  }
  const first = await outcomes()
  await sandbox.reset()
  const second = await outcomes()
  expect(second).toEqual(first)
  const failed = first.filter((status) => status !== 200)
  expect(failed.length).toBeGreaterThan(10)
  expect(failed.length).toBeLessThan(30)
  expect(new Set(failed)).toEqual(new Set([500, 503]))
})

it('down: every answer is a 503 Error body with Retry-After, and the other keys are untouched', async () => {
  await sandbox.scenarios.set(FREE, 'down')
  for (const [path, init] of [
    ['/pets', {}],
    ['/pets/1', {}],
    ['/pets', json({ name: 'Biscuit', categoryId: 2 })],
  ] as const) {
    const response = await api(path, init)
    expect(response.status).toBe(503)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await response.json()).code).toBe('service_unavailable')
  }
  expect((await api('/pets/1', { key: PRO })).status).toBe(200)
  expect((await sandbox.state()).pets.count).toBe(5)
})

it('sunset: getPet answers 410 as after the sunset, for this key only; listPets is served', async () => {
  await sandbox.scenarios.set(FREE, 'sunset')
  const gone = await api('/pets/1')
  expect(gone.status).toBe(410)
  expect(gone.headers.get('sunset')).not.toBeNull()
  expect((await gone.json()).message).toContain('use /v1/pets instead')
  expect((await api('/pets')).status).toBe(200)
  expect((await api('/pets/1', { key: PRO })).status).toBe(200)
})

it('rate-limited: the 429 of a spent window, without touching the real quota', async () => {
  const before = sandbox.quota.get(FREE)
  await sandbox.scenarios.set(FREE, 'rate-limited')
  for (let i = 0; i < 15; i++) {
    const refused = await api('/pets')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await refused.json()).code).toBe('rate_limited')
  }
  // Neither a request counted nor a ban begun (15 refusals would ban a key after 10).
  expect(sandbox.quota.get(FREE)).toEqual(before)
  await sandbox.scenarios.clear(FREE)
  expect((await api('/pets')).status).toBe(200)
})

it('custom scenarios apply per operation; reset restores the scenarios given at creation', async () => {
  await sandbox.scenarios.set(FREE, 'slow-creates')
  slept.length = 0
  const full = await api('/pets', json({ name: 'Biscuit', categoryId: 2 }))
  expect(full.status).toBe(507)
  expect(slept).toEqual([2000])
  expect((await api('/pets')).status).toBe(200)
  expect(sandbox.scenarios.get(FREE)).toBe('slow-creates')
  await sandbox.reset()
  expect(sandbox.scenarios.get(FREE)).toBeUndefined()
  const started = createSandbox({ scenarios: { keys: { [PRO]: 'down' } } })
  await started.scenarios.clear(PRO)
  await started.reset()
  expect(started.scenarios.get(PRO)).toBe('down')
})

it('refuses an unknown scenario or key with ConfigError, and lists the scenarios in the state', async () => {
  await expect(sandbox.scenarios.set(FREE, 'sideways' as ScenarioName)).rejects.toThrow(
    new ConfigError('unknown scenario "sideways"; known: empty, slow, flaky, down, sunset, rate-limited, slow-creates'),
  )
  await expect(sandbox.scenarios.set(FREE, 'flakey' as ScenarioName)).rejects.toThrow(
    new ConfigError(
      'unknown scenario "flakey"; did you mean flaky? known: empty, slow, flaky, down, sunset, rate-limited, slow-creates',
    ),
  )
  await expect(sandbox.scenarios.set('no-such-key', 'down')).rejects.toThrow(ConfigError)
  expect(() => createSandbox({ scenarios: { keys: { 'sandbox-pro-kye': 'down' } } })).toThrow(
    /^scenarios\.keys: sandbox-pro-kye is no configured key; did you mean sandbox-pro-key\?$/,
  )
  await sandbox.scenarios.set(PRO, 'down')
  const state = await sandbox.state()
  expect(state.keys.find((key) => key.key === PRO)?.scenario).toBe('down')
  expect(state.keys.find((key) => key.key === FREE)?.scenario).toBeUndefined()
  expect(state.scenarios.map((scenario) => scenario.name)).toEqual([
    'empty',
    'slow',
    'flaky',
    'down',
    'sunset',
    'rate-limited',
    'slow-creates',
  ])
  expect(() => createSandbox({ scenarios: { custom: { broken: { errorRate: 2 } } } })).toThrow(
    new ConfigError('scenarios: scenarios.broken.errorRate must be between 0 and 1'),
  )
  expect(() =>
    createSandbox({ scenarios: { custom: { wrong: { operations: { listPets: { status: 201 } } } } } }),
  ).toThrow(
    new ConfigError('scenarios: scenarios.wrong: listPets cannot answer 201; it may answer 200 or any 400 to 599'),
  )
})

it('records the scenario in the request log', async () => {
  await sandbox.scenarios.set(FREE, 'down')
  await api('/pets')
  await api('/pets', { key: PRO })
  expect(sandbox.requests(2).map((entry) => entry.scenario)).toEqual(['down', undefined])
})
