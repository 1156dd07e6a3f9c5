import { expect, it } from 'vitest'
import { createContractChecker } from '../support/contract-checker.js'
import { startCli, type CliProcess } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Prefer: code=<status> with --prefer (docs/decisions.md#d30).
const { call } = useCliSandbox(['--prefer', '--pets', '5'])
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

it('answers Prefer: code=429 as a spent window, with Retry-After, spending quota like any request', async () => {
  const before = Number((await call('/pets?limit=1', { key: 'sandbox-pro-key' })).headers.get('x-ratelimit-remaining'))
  const refused = await call('/pets', { key: 'sandbox-pro-key', headers: { prefer: 'code=429' } })
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
  expect(refused.headers.get('preference-applied')).toBe('code=429')
  expect((await refused.json()).code).toBe('rate_limited')
  const after = Number((await call('/pets?limit=1', { key: 'sandbox-pro-key' })).headers.get('x-ratelimit-remaining'))
  expect(after).toBe(before - 2)
})

it('answers Prefer: code=500 on createPet with an Error body, storing nothing; a listed success as usual', async () => {
  const failed = await call('/pets', {
    ...json({ name: 'Ace', categoryId: 1 }),
    headers: { 'content-type': 'application/json', prefer: 'code=500' },
  })
  expect(failed.status).toBe(500)
  expect(await failed.json()).toMatchObject({ code: 'internal_error', status: 500 })
  expect(await (await call('/pets?limit=100')).json()).toHaveLength(5)
  const created = await call('/pets', {
    ...json({ name: 'Ace', categoryId: 1 }),
    headers: { 'content-type': 'application/json', prefer: 'code=201' },
  })
  expect(created.status).toBe(201)
  const other = await call('/pets/1', { headers: { prefer: 'respond-async, code=418; foo=bar' } })
  expect(other.status).toBe(418)
  expect((await other.json()).code).toBe('forced_status')
  expect(other.headers.get('sunset')).not.toBeNull()
})

it('refuses a code the operation may not answer with a 400 naming the ones it may', async () => {
  const undeclared = await call('/pets', { headers: { prefer: 'code=201' } })
  expect(undeclared.status).toBe(400)
  expect((await undeclared.json()).message).toBe(
    'Prefer: code=201 is not an answer of listPets; it may answer 200 or any 400 to 599',
  )
  for (const code of ['600', '99', 'abc', '302']) {
    const refused = await call('/pets/1', { headers: { prefer: `code=${code}` } })
    expect(refused.status).toBe(400)
    expect((await refused.json()).message).toContain('it may answer 200 or any 400 to 599')
  }
  // Other preferences are no business of the sandbox.
  expect((await call('/pets', { headers: { prefer: 'return=minimal' } })).status).toBe(200)
})

it('ignores the header without --prefer, as a real backend would', async () => {
  const cli: CliProcess = await startCli(['--log', 'off', '--pets', '2'])
  const contract = createContractChecker()
  try {
    const url = `${cli.url}/pets`
    const response = await fetch(url, { headers: { authorization: 'Bearer sandbox-pro-key', prefer: 'code=500' } })
    contract.check('GET', url, response)
    expect(response.status).toBe(200)
    expect(response.headers.get('preference-applied')).toBeNull()
  } finally {
    await cli.stop()
  }
})

const limitedContract = createContractChecker()

it('spends the real quota for a Prefer: code= that a key in rate-limited sends: the scenario does not answer it, so it counts', async () => {
  const limited = await startCli([
    '--log',
    'off',
    '--prefer',
    '--pets',
    '3',
    '--scenario',
    'sandbox-free-key=rate-limited',
  ])
  try {
    const send = async (init: RequestInit) => {
      const target = `${limited.url}/pets`
      const response = await fetch(target, {
        ...init,
        headers: { authorization: 'Bearer sandbox-free-key', ...init.headers },
      })
      limitedContract.check(init.method ?? 'GET', target, response)
      return response
    }
    const create = () =>
      send({
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'code=201' },
        body: '{"name":"Ace","categoryId":1}',
      })
    const remaining: Array<string | null> = []
    for (let i = 0; i < 3; i++) {
      const created = await create()
      expect(created.status).toBe(201)
      remaining.push(created.headers.get('x-ratelimit-remaining'))
    }
    expect(remaining).toEqual(['59', '58', '57'])
    // Without Prefer the scenario answers, and the real window is left alone.
    const scenario = await send({})
    expect(scenario.status).toBe(429)
    expect(scenario.headers.get('x-sandbox-scenario')).toBe('rate-limited')
    expect((await create()).headers.get('x-ratelimit-remaining')).toBe('56')
  } finally {
    await limited.stop()
  }
})
