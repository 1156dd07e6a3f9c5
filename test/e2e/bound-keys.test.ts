import { expect, it } from 'vitest'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Keys bound to a session (D46), over real HTTP: a request carrying one is in its session with no header.
const TOKEN = 'admin-token-for-bound-keys'
const { call, url, cli } = useCliSandbox([
  '--admin-token',
  TOKEN,
  '--pets',
  '5',
  '--keep-requests',
  '1000',
  '--log',
  'pretty',
])
const admin = createAdminCaller(() => url().replace(/\/v1$/, ''), TOKEN, createAdminContractChecker())

interface BoundKey {
  key: string
  plan: string
  perMinute: number
  perDay: number
  session: string
}

async function bind(session: string, init: object = { plan: 'pro' }): Promise<BoundKey> {
  const response = await admin(`/sessions/${session}/keys`, { method: 'POST', json: init })
  expect(response.status).toBe(201)
  return (await response.json()) as BoundKey
}

const create = (key: string, name: string, headers: Record<string, string> = {}) =>
  call('/pets', {
    key,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

const names = async (response: Response) => ((await response.json()) as Array<{ name: string }>).map((pet) => pet.name)

it('answers 201 with a key bound to the session, listed in its summary, with the plan’s limits', async () => {
  const bound = await bind('summary-1', { plan: 'business' })
  expect(bound).toMatchObject({ plan: 'business', perMinute: 1000, perDay: 100000, session: 'summary-1' })
  expect(bound.key).toMatch(/^sbk_[A-Za-z0-9_-]{32}$/)
  const enterprise = await bind('summary-1', { plan: 'enterprise', perMinute: 5, perDay: 50 })
  const summary = (await (await admin('/sessions/summary-1')).json()) as { keys: Array<Record<string, unknown>> }
  expect(summary.keys).toEqual([
    {
      key: bound.key,
      masked: expect.stringMatching(/^sbk_…#[0-9a-f]{4}$/),
      plan: 'business',
      perMinute: 1000,
      perDay: 100000,
    },
    expect.objectContaining({ key: enterprise.key, plan: 'enterprise', perMinute: 5, perDay: 50 }),
  ])
  const listed = (await (await admin('/sessions')).json()) as { sessions: Array<{ name: string; keys: unknown[] }> }
  expect(listed.sessions.find((session) => session.name === 'default')?.keys).toEqual([])
  expect(listed.sessions.find((session) => session.name === 'summary-1')?.keys).toHaveLength(2)
  // Bad input changes nothing: a plan there is not, enterprise without limits, the default session.
  for (const [path, json] of [
    ['/sessions/summary-1/keys', { plan: 'gold' }],
    ['/sessions/summary-1/keys', { plan: 'enterprise' }],
    ['/sessions/summary-1/keys', { plan: 'pro', key: 'chosen-by-me' }],
    ['/sessions/default/keys', { plan: 'pro' }],
    ['/sessions/.bad/keys', { plan: 'pro' }],
  ] as const) {
    const refused = await admin(path, { method: 'POST', json })
    expect(refused.status).toBe(400)
  }
  expect(((await (await admin('/sessions/summary-1')).json()) as { keys: unknown[] }).keys).toHaveLength(2)
})

it('puts each bound key’s requests in its own session, with no header: two sessions see their own pets', async () => {
  const [one, two] = [await bind('iso-1'), await bind('iso-2')]
  expect((await create(one.key, 'one’s pet')).status).toBe(201)
  expect((await create(two.key, 'two’s pet')).status).toBe(201)
  const mine = await call('/pets?limit=100', { key: one.key })
  expect(mine.headers.get('x-sandbox-session')).toBe('iso-1')
  expect(await names(mine)).toContain('one’s pet')
  expect(await names(await call('/pets?limit=100', { key: one.key }))).not.toContain('two’s pet')
  expect(await names(await call('/pets?limit=100', { key: two.key }))).toContain('two’s pet')
  // The header's session agrees: the same world.
  expect(await names(await call('/pets?limit=100', { headers: { 'x-sandbox-session': 'iso-1' } }))).toContain(
    'one’s pet',
  )
  // The default session saw none of it, and a bound key is no key there.
  const defaults = await call('/pets?limit=100')
  expect(defaults.headers.get('x-sandbox-session')).toBeNull()
  expect(await names(defaults)).not.toContain('one’s pet')
  // A reset between tests keeps the key: the app's server still holds it.
  expect((await admin('/reset', { method: 'POST', session: 'iso-1' })).status).toBe(200)
  const reset = await call('/pets?limit=100', { key: one.key })
  expect(reset.status).toBe(200)
  expect(await names(reset)).not.toContain('one’s pet')
})

it('refuses a bound key with a header or baggage naming another session, naming both, and takes one naming its own', async () => {
  const bound = await bind('refusing')
  for (const headers of [
    { 'x-sandbox-session': 'elsewhere' },
    { 'x-sandbox-session': 'default' },
    { baggage: 'userId=alice, sandbox-session=elsewhere' },
  ] as Array<Record<string, string>>) {
    const refused = await create(bound.key, 'refused', headers)
    expect(refused.status).toBe(400)
    const body = (await refused.json()) as { code: string; message: string }
    expect(body.code).toBe('invalid_request')
    expect(body.message).toContain('"refusing"')
    expect(body.message).toContain(headers.baggage === undefined ? `"${headers['x-sandbox-session']}"` : '"elsewhere"')
  }
  // A bad name is told the rule, as without a bound key.
  expect((await call('/pets', { key: bound.key, headers: { 'x-sandbox-session': '.dot' } })).status).toBe(400)
  expect((await create(bound.key, 'agreed', { 'x-sandbox-session': 'refusing' })).status).toBe(201)
  expect(await names(await call('/pets?limit=100', { key: bound.key }))).toEqual(expect.arrayContaining(['agreed']))
  expect(await names(await call('/pets?limit=100', { key: bound.key }))).not.toContain('refused')
  // Nothing was made of the sessions the refused requests named.
  expect((await admin('/sessions/elsewhere')).status).toBe(404)
})

it('counts a bound key’s quota in its session, on its plan', async () => {
  const bound = await bind('quota', { plan: 'enterprise', perMinute: 2, perDay: 100 })
  expect((await call('/pets', { key: bound.key })).headers.get('x-ratelimit-remaining')).toBe('1')
  expect((await call('/pets', { key: bound.key })).status).toBe(200)
  const refused = await call('/pets', { key: bound.key })
  expect(refused.status).toBe(429)
  expect(refused.headers.get('x-ratelimit-limit')).toBe('2')
  // Read and arranged through the admin API in its session only.
  const path = `/keys/${encodeURIComponent(bound.key)}`
  const read = await admin(path, { session: 'quota' })
  expect(read.status).toBe(200)
  expect(((await read.json()) as { quota: { limit: number; remaining: number } }).quota).toMatchObject({
    limit: 2,
    remaining: 0,
  })
  const arranged = await admin(path, { session: 'quota', method: 'PATCH', json: { remaining: 1 } })
  expect(arranged.status).toBe(200)
  expect((await call('/pets', { key: bound.key })).status).toBe(200)
  expect((await admin(path)).status).toBe(404)
  expect((await admin(path, { session: 'elsewhere-quota' })).status).toBe(404)
  // A key of the sandbox may not equal it, and the refusal changes nothing.
  const added = await admin('/keys', { method: 'POST', json: { key: bound.key, plan: 'pro' } })
  expect(added.status).toBe(400)
  expect(((await added.json()) as { message: string }).message).toContain('bound to a session')
  expect((await call('/pets', { key: bound.key })).status).toBe(429)
})

it('lets a bound key die with its session: deleted, replaced, deleted by prefix', async () => {
  const deleted = await bind('gone-deleted')
  expect((await call('/pets', { key: deleted.key })).status).toBe(200)
  expect((await admin('/sessions/gone-deleted', { method: 'DELETE' })).status).toBe(200)
  const after = await call('/pets', { key: deleted.key })
  expect(after.status).toBe(401)
  expect(after.headers.get('x-sandbox-session')).toBeNull()
  // The request made no session of that name again.
  expect((await admin('/sessions/gone-deleted')).status).toBe(404)

  const replaced = await bind('gone-replaced')
  expect((await admin('/sessions/gone-replaced', { method: 'PUT', json: {} })).status).toBe(200)
  expect((await call('/pets', { key: replaced.key })).status).toBe(401)
  expect(((await (await admin('/sessions/gone-replaced')).json()) as { keys: unknown[] }).keys).toEqual([])

  const [a, b] = [await bind('gone-run-a'), await bind('gone-run-b')]
  const dropped = (await (await admin('/sessions?prefix=gone-run-', { method: 'DELETE' })).json()) as {
    deleted: string[]
  }
  expect(dropped.deleted.sort()).toEqual(['gone-run-a', 'gone-run-b'])
  for (const { key } of [a, b]) expect((await call('/pets', { key })).status).toBe(401)
})

it('carries bound keys in a capsule: restored after its session went, refused beside it with 409', async () => {
  const bound = await bind('capsule-source')
  expect((await create(bound.key, 'carried')).status).toBe(201)
  const capsule = (await (await admin('/sessions/capsule-source/capsule')).json()) as {
    boundKeys?: Array<{ key: string; plan: string }>
    quotas: Record<string, unknown>
  }
  expect(capsule.boundKeys).toEqual([{ key: bound.key, plan: 'pro', perMinute: 300, perDay: 10000 }])
  expect(capsule.quotas[bound.key]).toMatchObject({ minuteUsed: 1, dayUsed: 1 })
  // A key names one session: restored beside its session, nothing changes.
  const beside = await admin('/sessions/capsule-copy', { method: 'PUT', json: { capsule } })
  expect(beside.status).toBe(409)
  expect(((await beside.json()) as { message: string }).message).toContain('"capsule-source"')
  expect((await admin('/sessions/capsule-copy')).status).toBe(404)
  // Restored into its own session, or once that is gone into another, the key follows.
  expect((await admin('/sessions/capsule-source', { method: 'PUT', json: { capsule } })).status).toBe(200)
  expect(await names(await call('/pets?limit=100', { key: bound.key }))).toContain('carried')
  expect((await admin('/sessions/capsule-source', { method: 'DELETE' })).status).toBe(200)
  const restored = await admin('/sessions/capsule-copy', { method: 'PUT', json: { capsule } })
  expect(restored.status).toBe(200)
  expect(((await restored.json()) as { keys: Array<{ key: string }> }).keys.map((key) => key.key)).toEqual([bound.key])
  const served = await call('/pets?limit=100', { key: bound.key })
  expect(served.headers.get('x-sandbox-session')).toBe('capsule-copy')
  expect(await names(served)).toContain('carried')
  // A fork copies none: the key still names one session.
  const fork = await admin('/sessions/capsule-fork', { method: 'PUT', json: { from: 'capsule-copy' } })
  expect(((await fork.json()) as { keys: unknown[] }).keys).toEqual([])
})

it('masks a bound key in the printed log, the request list and the HAR', async () => {
  const bound = await bind('masked')
  expect((await create(bound.key, `named ${bound.key}`)).status).toBe(201)
  expect((await call(`/pets/${bound.key}`, { key: bound.key })).status).toBe(400)
  const listed = await (await admin('/requests', { session: 'masked' })).text()
  const har = await (await admin('/requests.har', { session: 'masked' })).text()
  const capsuleHar = JSON.stringify(((await (await admin('/sessions/masked/capsule')).json()) as { har: unknown }).har)
  await expect.poll(() => cli().output()).toContain('masked')
  for (const shown of [listed, har, capsuleHar, cli().output()]) {
    expect(shown).not.toContain(bound.key)
    expect(shown).toContain('sbk_…#')
  }
})
