import { validate } from '@readme/openapi-parser'
import { expect, it } from 'vitest'
import { adminDocument, createAdminContractChecker } from '../support/admin-contract.js'
import { runCli, startCli } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const TOKEN = 'admin-token-for-tests'
const { call, url, cli } = useCliSandbox([
  '--admin-token',
  TOKEN,
  '--pets',
  '5',
  '--keep-requests',
  '3',
  '--log',
  'json',
])
const adminContract = createAdminContractChecker()

/** fetch below /__sandbox with the admin token (or `token`); every answer checked against the admin contract. */
async function admin(
  path: string,
  init: RequestInit & { token?: string | null; json?: unknown } = {},
): Promise<Response> {
  const { token = TOKEN, json, ...rest } = init
  const headers = new Headers(rest.headers)
  if (token !== null) headers.set('authorization', `Bearer ${token}`)
  if (json !== undefined) headers.set('content-type', 'application/json')
  const target = `${url().replace(/\/v1$/, '')}/__sandbox${path}`
  const response = await fetch(target, {
    ...rest,
    headers,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
  adminContract.check(rest.method ?? 'GET', target, response)
  return response
}

it('describes the admin API in a valid OpenAPI document', async () => {
  const result = await validate(structuredClone(adminDocument) as never)
  expect(result.valid ? [] : result.errors).toEqual([])
})

it('refuses every admin path without a token, with a wrong token and with an API key', async () => {
  for (const path of ['/health', '/state', '/requests', '/nowhere']) {
    for (const token of [null, 'wrong-admin-token', 'sandbox-enterprise-key']) {
      const response = await admin(path, { token })
      expect(response.status).toBe(401)
      expect((await response.json()).code).toBe('unauthorized')
    }
  }
  const reset = await admin('/reset', { method: 'POST', token: 'sandbox-free-key' })
  expect(reset.status).toBe(401)
  expect(adminContract.count()).toBeGreaterThan(0)
})

it('answers health with the sandbox clock', async () => {
  const response = await admin('/health')
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ status: 'ok', now: expect.any(String) })
})

it('summarises the state: pet count, next id, every key with plan, quota and ban', async () => {
  await call('/pets', { key: 'sandbox-pro-key' })
  const state = await (await admin('/state')).json()
  expect(state.pets.count).toBeGreaterThanOrEqual(5)
  expect(state.keys.map((key: { plan: string }) => key.plan)).toEqual(['free', 'pro', 'business', 'enterprise'])
  const pro = state.keys.find((key: { key: string }) => key.key === 'sandbox-pro-key')
  expect(pro.quota.minute.used).toBeGreaterThanOrEqual(1)
  expect(pro.quota.bannedUntil).toBeUndefined()
})

it('resets to the seeded pets and forgets counters', async () => {
  const created = await call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Gone soon', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  const response = await admin('/reset', { method: 'POST' })
  expect(response.status).toBe(200)
  const state = await response.json()
  expect(state.pets).toEqual({ count: 5, nextId: 6 })
  expect(state.keys.every((key: { quota: { minute: { used: number } } }) => key.quota.minute.used === 0)).toBe(true)
  expect((await call(`/pets/${(await created.json()).id}`)).status).toBe(404)
})

it('sets and advances the clock, which the API then follows', async () => {
  const set = await admin('/clock', { method: 'POST', json: { set: '2030-12-06T00:00:00Z' } })
  expect((await set.json()).now).toMatch(/^2030-12-06T00:00:0/)
  // The sunset of getPet is 2030-12-05: by the moved clock, it is gone.
  expect((await call('/pets/1')).status).toBe(410)
  const back = await admin('/clock', { method: 'POST', json: { advanceMs: -5 * 86_400_000 } })
  expect((await back.json()).now).toMatch(/^2030-12-01T/)
  expect((await call('/pets/1')).status).toBe(200)
  expect((await (await admin('/clock')).json()).now).toMatch(/^2030-12-01T/)
  const bad = await admin('/clock', { method: 'POST', json: { set: 'tomorrow' } })
  expect(bad.status).toBe(400)
  const both = await admin('/clock', { method: 'POST', json: { set: '2030-01-01T00:00:00Z', advanceMs: 1 } })
  expect(both.status).toBe(400)
})

it("sets a key's remaining quota, and bans and unbans it", async () => {
  const arranged = await admin('/keys/sandbox-free-key', { method: 'PATCH', json: { remaining: 1 } })
  expect((await arranged.json()).quota.minute.remaining).toBe(1)
  expect((await call('/pets', { key: 'sandbox-free-key' })).status).toBe(200)
  expect((await call('/pets', { key: 'sandbox-free-key' })).status).toBe(429)

  const banned = await admin('/keys/sandbox-free-key', { method: 'PATCH', json: { banned: 60 } })
  expect((await banned.json()).quota.bannedUntil).toEqual(expect.any(Number))
  expect((await (await call('/pets', { key: 'sandbox-free-key' })).json()).code).toBe('temporarily_banned')

  await admin('/keys/sandbox-free-key', { method: 'PATCH', json: { banned: false, remaining: 10 } })
  expect((await call('/pets', { key: 'sandbox-free-key' })).status).toBe(200)
  expect((await (await admin('/keys/sandbox-free-key')).json()).quota.bannedUntil).toBeUndefined()
})

it('answers bad admin input with Error bodies and changes nothing', async () => {
  const before = await (await admin('/keys/sandbox-pro-key')).json()
  expect((await admin('/keys/no-such-key', { method: 'PATCH', json: { remaining: 1 } })).status).toBe(404)
  expect((await admin('/keys/sandbox-pro-key', { method: 'PATCH', json: { remaining: -1 } })).status).toBe(400)
  expect((await admin('/keys/sandbox-pro-key', { method: 'PATCH', json: { plan: 'free' } })).status).toBe(400)
  expect((await admin('/keys/sandbox-pro-key', { method: 'PATCH', body: 'remaining=1' })).status).toBe(415)
  expect((await admin('/faults', { method: 'PUT', json: { errorRate: 2 } })).status).toBe(400)
  expect(
    (await admin('/faults', { method: 'PUT', json: { operations: { deletePet: { errorRate: 1 } } } })).status,
  ).toBe(400)
  expect((await admin('/state', { method: 'DELETE' })).status).toBe(405)
  expect((await admin('/nowhere')).status).toBe(404)
  expect((await admin('/requests?limit=many')).status).toBe(400)
  expect((await (await admin('/keys/sandbox-pro-key')).json()).quota.minute.remaining).toBe(
    before.quota.minute.remaining,
  )
  expect((await (await admin('/faults')).json()).errorRate).toBe(0)
})

it('configures faults, which then mark the answers they change', async () => {
  const configured = await admin('/faults', {
    method: 'PUT',
    json: { operations: { listPets: { errorRate: 1 } }, kinds: ['503'], seed: 4 },
  })
  expect(await configured.json()).toMatchObject({
    errorRate: 0,
    kinds: ['503'],
    seed: 4,
    operations: { listPets: { errorRate: 1 } },
  })
  const failed = await call('/pets')
  expect(failed.status).toBe(503)
  expect(failed.headers.get('x-sandbox-fault')).toBe('error=503')
  expect((await failed.json()).message).toMatch(/Injected fault/)
  expect((await call('/pets/1')).headers.get('x-sandbox-fault')).toBeNull()
  await admin('/faults', { method: 'PUT', json: {} })
  expect((await call('/pets')).status).toBe(200)
})

it('serves the last requests with keys masked, at most --keep-requests of them', async () => {
  await call('/pets?limit=1', { key: 'sandbox-business-key' })
  await call('/pets?limit=2', { key: null })
  const all = await (await admin('/requests')).json()
  expect(all.requests).toHaveLength(3)
  const last = await (await admin('/requests?limit=2')).json()
  expect(last.requests.map((entry: { path: string }) => entry.path)).toEqual(['/v1/pets?limit=1', '/v1/pets?limit=2'])
  expect(last.requests[0]).toMatchObject({
    method: 'GET',
    status: 200,
    key: expect.stringMatching(/^sand…#[0-9a-f]{4}$/),
  })
  expect(last.requests[1]).toMatchObject({ status: 401, key: '-' })
  expect(JSON.stringify(all)).not.toContain('sandbox-business-key')
})

it('logs admin calls without any part of the admin token', async () => {
  await admin('/health')
  await new Promise((resolve) => setTimeout(resolve, 100))
  const line = cli()
    .output()
    .split('\n')
    .filter((entry) => entry.includes('"/__sandbox/health"'))
    .at(-1)
  expect(JSON.parse(line!)).toMatchObject({ method: 'GET', status: 200, key: 'admin' })
  expect(cli().output()).not.toContain(TOKEN.slice(0, 8))
})

it('has no admin API without --admin-token: its paths are 404 like any path outside /v1', async () => {
  const plain = await startCli(['--log', 'off', '--pets', '1'])
  try {
    const origin = plain.url.replace(/\/v1$/, '')
    for (const token of [TOKEN, 'sandbox-free-key']) {
      const response = await call(`${origin}/__sandbox/state`, { key: token })
      expect(response.status).toBe(404)
      expect((await response.json()).code).toBe('not_found')
    }
  } finally {
    await plain.stop()
  }
})

it('takes the admin token from PETSTORE_SANDBOX_ADMIN_TOKEN, and refuses a weak one or one equal to an API key', async () => {
  const fromEnv = await startCli(['--log', 'off', '--pets', '1'], {
    PETSTORE_SANDBOX_ADMIN_TOKEN: 'token-from-the-environment',
  })
  try {
    expect(fromEnv.output()).toContain('/__sandbox/')
    const health = `${fromEnv.url.replace(/\/v1$/, '')}/__sandbox/health`
    const response = await fetch(health, { headers: { authorization: 'Bearer token-from-the-environment' } })
    adminContract.check('GET', health, response)
    expect(response.status).toBe(200)
  } finally {
    await fromEnv.stop()
  }
  for (const token of ['short', 'sandbox-free-key', 'has space in it']) {
    const result = await runCli(['start', '--port', '0', '--admin-token', token])
    expect(result.code, token).toBe(1)
    expect(result.stderr).toMatch(/^error: adminToken must/)
  }
})
