import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { runCli } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const TOKEN = 'admin-token-for-tests'
const FREE = 'sandbox-free-key'
const PRO = 'sandbox-pro-key'

async function scenariosFile(content: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-scenarios-')), 'scenarios.json')
  await writeFile(file, JSON.stringify(content))
  return file
}

const file = await scenariosFile({
  scenarios: { 'creates-fail': { description: 'every create is a 500', operations: { createPet: { status: 500 } } } },
})
const { call, url } = useCliSandbox([
  '--admin-token',
  TOKEN,
  '--pets',
  '5',
  '--scenario',
  `${FREE}=down`,
  '--scenarios',
  file,
])
const adminContract = createAdminContractChecker()

async function admin(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init
  const headers = new Headers(rest.headers)
  headers.set('authorization', `Bearer ${TOKEN}`)
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
const setScenario = (key: string, name: string) =>
  admin(`/keys/${encodeURIComponent(key)}/scenario`, { method: 'PUT', json: { name } })
const clearScenario = (key: string) => admin(`/keys/${encodeURIComponent(key)}/scenario`, { method: 'DELETE' })

it('two keys: the one put in down by --scenario gets 503 with Retry-After, the other is untouched', async () => {
  for (const path of ['/pets', '/pets/1']) {
    const down = await call(path, { key: FREE })
    expect(down.status).toBe(503)
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(down.headers.get('x-sandbox-scenario')).toBe('down')
    expect((await down.json()).code).toBe('service_unavailable')
    const served = await call(path, { key: PRO })
    expect(served.status).toBe(200)
    expect(served.headers.get('x-sandbox-scenario')).toBeNull()
  }
  const state = await (await admin('/state')).json()
  expect(state.keys.find((key: { key: string }) => key.key === FREE).scenario).toBe('down')
  expect(state.keys.find((key: { key: string }) => key.key === PRO).scenario).toBeUndefined()
  const requests = (await (await admin('/requests?limit=4')).json()).requests
  expect(requests.map((entry: { scenario?: string }) => entry.scenario ?? '-')).toEqual(['down', '-', 'down', '-'])
})

it('sets and clears a scenario through the admin API: empty, sunset, a custom one', async () => {
  const set = await setScenario(PRO, 'empty')
  expect(set.status).toBe(200)
  expect(await set.json()).toEqual({ key: PRO, scenario: 'empty' })
  expect(await (await call('/pets', { key: PRO })).json()).toEqual([])
  expect((await call('/pets/1', { key: PRO })).status).toBe(404)

  await setScenario(PRO, 'sunset')
  const gone = await call('/pets/1', { key: PRO })
  expect(gone.status).toBe(410)
  expect((await gone.json()).code).toBe('gone')
  expect((await call('/pets/1')).status).toBe(200)

  await setScenario(PRO, 'creates-fail')
  const failed = await call('/pets', {
    key: PRO,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ace', categoryId: 1 }),
  })
  expect(failed.status).toBe(500)
  expect((await call('/pets', { key: PRO })).status).toBe(200)

  const cleared = await clearScenario(PRO)
  expect(await cleared.json()).toEqual({ key: PRO, scenario: null })
  expect((await call('/pets/1', { key: PRO })).status).toBe(200)
})

it('slow: the whole answer arrives at least a second late', async () => {
  await setScenario(PRO, 'slow')
  const started = performance.now()
  const response = await call('/pets?limit=3', { key: PRO })
  expect(await response.json()).toHaveLength(3)
  expect(performance.now() - started).toBeGreaterThanOrEqual(1000)
  expect(response.headers.get('x-sandbox-scenario')).toBe('slow')
  await clearScenario(PRO)
})

it('an unknown scenario is a 400 listing the known ones, with the nearest of a typo; an unknown key a 404; nothing changes', async () => {
  const unknown = await setScenario(PRO, 'sideways')
  expect(unknown.status).toBe(400)
  expect((await unknown.json()).message).toBe(
    'unknown scenario "sideways"; known: empty, slow, flaky, down, sunset, rate-limited, creates-fail',
  )
  const typo = await setScenario(PRO, 'dwon')
  expect(typo.status).toBe(400)
  expect((await typo.json()).message).toBe(
    'unknown scenario "dwon"; did you mean down? known: empty, slow, flaky, down, sunset, rate-limited, creates-fail',
  )
  expect((await setScenario('no-such-key', 'down')).status).toBe(404)
  expect((await admin(`/keys/${PRO}/scenario`, { method: 'PUT', json: {} })).status).toBe(400)
  expect((await call('/pets', { key: PRO })).status).toBe(200)
})

it('a reset restores the scenarios of --scenario', async () => {
  await clearScenario(FREE)
  expect((await call('/pets', { key: FREE })).status).toBe(200)
  await admin('/reset', { method: 'POST' })
  expect((await call('/pets', { key: FREE })).status).toBe(503)
})

it('refuses a bad --scenario or scenarios file at start, in one line', async () => {
  const unknown = await runCli(['start', '--port', '0', '--scenario', `${FREE}=sideways`])
  expect(unknown.code).toBe(1)
  expect(unknown.stderr.trim()).toBe(
    'error: --scenario #1: unknown scenario "sideways"; known: empty, slow, flaky, down, sunset, rate-limited',
  )
  const typo = await runCli(['start', '--port', '0', '--scenario', `${PRO}=slow`, '--scenario', `${FREE}=dwon`])
  expect(typo.stderr.trim()).toBe(
    'error: --scenario #2: unknown scenario "dwon"; did you mean down? known: empty, slow, flaky, down, sunset, rate-limited',
  )
  // The key as it was typed, on the position of its pair; the nearest key a demo key, shown whole.
  const key = await runCli(['start', '--port', '0', '--scenario', `${PRO}=slow,sandbox-fre-key=down`])
  expect(key.stderr.trim()).toBe(
    'error: --scenario #2: sandbox-fre-key is no configured key; did you mean sandbox-free-key?',
  )
  // A key of a keys file is a secret: the nearest one is masked.
  const keysFile = join(await mkdtemp(join(tmpdir(), 'petstore-keys-')), 'keys.json')
  await writeFile(keysFile, JSON.stringify({ keys: [{ key: 'team-alpha-secret-0001', plan: 'pro' }] }))
  const secret = await runCli(['start', '--port', '0', '--keys', keysFile, '--scenario', 'team-alpha-secret-0002=down'])
  expect(secret.stderr.trim()).toMatch(
    /^error: --scenario #1: team-alpha-secret-0002 is no configured key; did you mean team…#[0-9a-f]{4}\?$/,
  )
  expect(secret.stderr).not.toContain('team-alpha-secret-0001')
  const malformed = await runCli(['start', '--port', '0', '--scenario', 'down'])
  expect(malformed.stderr).toContain('expected <key>=<scenario>')
  const bad = await scenariosFile({ scenarios: { slowish: { latency: { min: 10, max: 20 }, errorRate: 3 } } })
  const refused = await runCli(['start', '--port', '0', '--scenarios', bad])
  expect(refused.stderr.trim()).toBe(
    `error: scenarios file ${bad}: scenarios.slowish.errorRate must be between 0 and 1`,
  )
  const fromEnv = await runCli(['start', '--port', '0'], { PETSTORE_SANDBOX_SCENARIO: `${FREE}=down,nobody=slow` })
  expect(fromEnv.stderr.trim()).toBe('error: PETSTORE_SANDBOX_SCENARIO #2: nobody is no configured key')
})

it('keys named constructor, toString and __proto__ are in no scenario until put in one, and DELETE takes them out', async () => {
  for (const key of ['constructor', 'toString', '__proto__']) {
    expect((await admin('/keys', { method: 'POST', json: { key, plan: 'pro' } })).status).toBe(200)
    const fresh = await call('/pets?limit=1', { key })
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('x-sandbox-scenario')).toBeNull()
    const state = (await (await admin('/state')).json()) as { keys: Array<{ key: string; scenario?: string }> }
    expect(state.keys.find((entry) => entry.key === key)?.scenario).toBeUndefined()
    expect((await setScenario(key, 'down')).status).toBe(200)
    expect((await call('/pets?limit=1', { key })).status).toBe(503)
    expect((await clearScenario(key)).status).toBe(200)
    const cleared = await call('/pets?limit=1', { key })
    expect(cleared.status).toBe(200)
    expect(cleared.headers.get('x-sandbox-scenario')).toBeNull()
  }
})

it('forgets a revoked key’s scenario: added again, the key starts with none', async () => {
  const key = 'revoked-then-added-key'
  expect((await admin('/keys', { method: 'POST', json: { key, plan: 'pro' } })).status).toBe(200)
  expect((await setScenario(key, 'down')).status).toBe(200)
  expect((await call('/pets?limit=1', { key })).status).toBe(503)
  expect((await admin(`/keys/${key}`, { method: 'DELETE' })).status).toBe(200)
  expect((await admin('/keys', { method: 'POST', json: { key, plan: 'pro' } })).status).toBe(200)
  const again = await call('/pets?limit=1', { key })
  expect(again.status).toBe(200)
  expect(again.headers.get('x-sandbox-scenario')).toBeNull()
})
