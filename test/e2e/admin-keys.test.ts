import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'

const TOKEN = 'admin-token-for-keys'
const adminContract = createAdminContractChecker()
const contract = createContractChecker()

async function admin(cli: CliProcess, path: string, method = 'GET', json?: unknown): Promise<Response> {
  const target = `${cli.url.replace(/\/v1$/, '')}/__sandbox${path}`
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }
  if (json !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(target, {
    method,
    headers,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
  adminContract.check(method, target, response)
  return response
}

async function pets(cli: CliProcess, key: string): Promise<Response> {
  const response = await fetch(`${cli.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })
  contract.check('GET', `${cli.url}/pets?limit=1`, response)
  return response
}

it('adds a key, changes its plan and revokes it over the admin API, and keeps that across a restart with --state', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-keys-')), 'state.jsonl')
  const args = ['--log', 'off', '--pets', '2', '--admin-token', TOKEN, '--state', file]
  const first = await startCli(args)
  try {
    const added = await admin(first, '/keys', 'POST', { key: 'partner-key', plan: 'pro' })
    expect(added.status).toBe(200)
    expect(await added.json()).toMatchObject({
      key: 'partner-key',
      plan: 'pro',
      perMinute: 300,
      perDay: 10000,
      quota: { limit: 300 },
    })
    expect((await pets(first, 'partner-key')).headers.get('x-ratelimit-limit')).toBe('300')

    const planned = await admin(first, '/keys/partner-key/plan', 'PUT', {
      plan: 'enterprise',
      perMinute: 20,
      perDay: 200,
    })
    expect(await planned.json()).toMatchObject({
      plan: 'enterprise',
      perMinute: 20,
      perDay: 200,
      quota: { minute: { used: 1, limit: 20 } },
    })
    expect((await pets(first, 'partner-key')).headers.get('x-ratelimit-limit')).toBe('20')

    const revoked = await admin(first, '/keys/sandbox-free-key', 'DELETE')
    expect(await revoked.json()).toEqual({ key: 'sandbox-free-key', revoked: true })
    expect((await pets(first, 'sandbox-free-key')).status).toBe(401)
  } finally {
    await first.stop()
  }
  expect(JSON.parse(await readFile(`${file}.keys.json`, 'utf8'))).toEqual({
    petstoreSandboxKeys: 1,
    put: [{ key: 'partner-key', plan: 'enterprise', perMinute: 20, perDay: 200 }],
    revoked: ['sandbox-free-key'],
  })

  const second = await startCli(args)
  try {
    expect((await pets(second, 'partner-key')).headers.get('x-ratelimit-limit')).toBe('20')
    expect((await pets(second, 'sandbox-free-key')).status).toBe(401)
    const state = await (await admin(second, '/state')).json()
    expect(state.keys.map((key: { key: string }) => key.key)).toEqual([
      'sandbox-pro-key',
      'sandbox-business-key',
      'sandbox-enterprise-key',
      'partner-key',
    ])
    expect(state.keys[3].masked).toMatch(/^…#[0-9a-f]{4}$/)
  } finally {
    await second.stop()
  }
})

it('refuses bad key changes with Error bodies and changes nothing', async () => {
  const cli = await startCli(['--log', 'off', '--pets', '1', '--admin-token', TOKEN])
  try {
    const cases: Array<[string, string, unknown, number, string]> = [
      ['/keys', 'POST', { key: 'sandbox-pro-key', plan: 'free' }, 400, 'key is already configured'],
      ['/keys', 'POST', { key: 'k-one-two', plan: 'gold' }, 400, 'plan must be one of free, pro, business, enterprise'],
      [
        '/keys',
        'POST',
        { key: 'k-one-two', plan: 'enterprise' },
        400,
        'perMinute is required when plan is enterprise; perDay is required when plan is enterprise',
      ],
      [
        '/keys',
        'POST',
        { key: 'a b c d e', plan: 'free' },
        400,
        'key must be a bearer token (RFC 6750 b64token) of 8 to 256 characters',
      ],
      // One-character keys such as / and ~ matched every path in the masked request list.
      [
        '/keys',
        'POST',
        { key: '/', plan: 'free' },
        400,
        'key must be a bearer token (RFC 6750 b64token) of 8 to 256 characters',
      ],
      [
        '/keys',
        'POST',
        { key: '~', plan: 'free' },
        400,
        'key must be a bearer token (RFC 6750 b64token) of 8 to 256 characters',
      ],
      [
        '/keys',
        'POST',
        { key: 'k'.repeat(257), plan: 'free' },
        400,
        'key must be a bearer token (RFC 6750 b64token) of 8 to 256 characters',
      ],
      ['/keys', 'POST', { key: TOKEN, plan: 'free' }, 400, 'key must differ from the admin token'],
      [
        '/keys',
        'POST',
        { key: 'k-three-3', plan: 'free', extra: 1 },
        400,
        'the body has an unknown field; known fields: key, plan, perMinute, perDay',
      ],
      [
        '/keys',
        'POST',
        { key: 'k-three-3', plan: 'free', permin: 1 },
        400,
        'permin: unknown field; did you mean perMinute?',
      ],
      ['/keys/nobody/plan', 'PUT', { plan: 'pro' }, 404, 'no configured key "nobody"'],
      ['/keys/nobody', 'DELETE', undefined, 404, 'no configured key "nobody"'],
    ]
    for (const [path, method, json, status, message] of cases) {
      const response = await admin(cli, path, method, json)
      expect(response.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(status)
      expect((await response.json()).message).toContain(message)
    }
    const state = await (await admin(cli, '/state')).json()
    expect(state.keys.map((key: { key: string }) => key.key)).toEqual([
      'sandbox-free-key',
      'sandbox-pro-key',
      'sandbox-business-key',
      'sandbox-enterprise-key',
    ])
  } finally {
    await cli.stop()
  }
})

it.each([
  [
    'not a key file',
    'not json',
    /^error: key file .*state\.jsonl\.keys\.json is not a petstore-sandbox key file; it was left untouched/,
  ],
  [
    'an entry that is no valid key',
    JSON.stringify({ petstoreSandboxKeys: 1, put: [{ key: 'k-one-two', plan: 'gold' }], revoked: [] }),
    /^error: restored keys: put\[0\]\.plan must be one of/,
  ],
])(
  'refuses to start on a key file with %s, with its reason in one line, and leaves it alone',
  async (_, contents, message) => {
    const file = join(await mkdtemp(join(tmpdir(), 'petstore-keys-')), 'state.jsonl')
    await writeFile(`${file}.keys.json`, contents)
    const { code, stderr } = await runCli(['start', '--port', '0', '--log', 'off', '--state', file])
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr.trim()).toMatch(message)
    expect(await readFile(`${file}.keys.json`, 'utf8')).toBe(contents)
  },
)
