import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { ConfigError, createSandbox, type ApiError } from '../../src/index.js'
import { loadKeysFile } from '../../src/node/options/load-keys-file.js'
import { createAdminContractChecker } from '../support/admin-contract.js'

// The admin API is routed and validated from fixtures/admin-openapi.yaml; its refusals name the
// field at fault, and change nothing.
const sandbox = createSandbox({ pets: 2, adminToken: 'admin-token-1' })
const contract = createAdminContractChecker()

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: ApiError }> {
  const url = `http://api.test/__sandbox${path}`
  const response = await sandbox.fetch(url, {
    method,
    headers: { authorization: 'Bearer admin-token-1', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  contract.check(method, url, response)
  return { status: response.status, body: (await response.json()) as ApiError }
}

it('names an unknown field of a body with the nearest known one, and lists the known ones for a field that is no near miss', async () => {
  expect(await admin('PATCH', '/keys/sandbox-pro-key', { remainin: 3 })).toMatchObject({
    status: 400,
    body: { code: 'invalid_request', message: 'remainin: unknown field; did you mean remaining?' },
  })
  expect(await admin('PATCH', '/keys/sandbox-pro-key', { plan: 'free' })).toMatchObject({
    status: 400,
    body: {
      code: 'invalid_request',
      message: 'the body has an unknown field; known fields: remaining, minuteRemaining, dayRemaining, banned',
    },
  })
  expect(sandbox.quota.get('sandbox-pro-key').remaining).toBe(300)
})

it('refuses a clock move with neither or both of set and advanceMs, and an instant that does not parse', async () => {
  const before = sandbox.clock.now()
  expect((await admin('POST', '/clock', {})).body.message).toBe('the body must hold exactly one of set, advanceMs')
  expect((await admin('POST', '/clock', { set: '2030-01-01T00:00:00Z', advanceMs: 5 })).body.message).toBe(
    'the body must hold exactly one of set, advanceMs',
  )
  expect((await admin('POST', '/clock', { set: 'soon' })).body.message).toBe(
    'set must be an ISO 8601 instant such as 2030-12-06T00:00:00Z',
  )
  expect(sandbox.clock.now() - before).toBeLessThan(60_000)
})

it('refuses query values the document rules out', async () => {
  expect(await admin('GET', '/requests?limit=many')).toMatchObject({
    status: 400,
    body: { message: 'limit must be an integer' },
  })
  expect(await admin('POST', '/reset?clock=maybe')).toMatchObject({
    status: 400,
    body: { message: 'clock must be a boolean' },
  })
})

it('answers 404 for an unknown key and 405 with Allow for an unknown method', async () => {
  expect(await admin('GET', '/keys/no-such-key')).toMatchObject({ status: 404, body: { code: 'not_found' } })
  expect(await admin('DELETE', '/state')).toMatchObject({ status: 405, body: { code: 'method_not_allowed' } })
  expect(await admin('GET', '/proxy')).toMatchObject({
    status: 404,
    body: { message: '/__sandbox/proxy is served only by petstore-sandbox proxy' },
  })
})

it('refuses clock moves past its bounds with 400 and moves nothing (1e308 ms was a 500)', async () => {
  const before = sandbox.clock.now()
  for (const [body, message] of [
    [{ advanceMs: 1e308 }, 'advanceMs must be between -3155760000000 and 3155760000000'],
    [{ advanceMs: -3_155_760_000_001 }, 'advanceMs must be between -3155760000000 and 3155760000000'],
    [
      { set: '1969-12-31T23:59:59Z' },
      'the clock must stay between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z',
    ],
    [{ set: '+010000-01-01T00:00:00Z' }, 'the clock must stay between'],
  ] as const) {
    const answer = await admin('POST', '/clock', body)
    expect(answer, JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'invalid_request', status: 400 } })
    expect(answer.body.message).toContain(message)
  }
  // Within a move's bound, but past year 9999 once added up: refused too.
  expect((await admin('POST', '/clock', { set: '9990-01-01T00:00:00Z' })).status).toBe(200)
  expect(await admin('POST', '/clock', { advanceMs: 3_155_760_000_000 })).toMatchObject({ status: 400 })
  expect((await admin('POST', '/clock', { set: new Date(before).toISOString() })).status).toBe(200)
  expect(sandbox.clock.now() - before).toBeLessThan(60_000)
})

it('words the same typo alike through the admin API, the library and a keys file: the field, then "did you mean"', async () => {
  const typo = { key: 'team-typo-key-1', plan: 'free', permin: 5 }
  const words = 'permin: unknown field; did you mean perMinute?'
  expect(await admin('POST', '/keys', typo)).toMatchObject({
    status: 400,
    body: { code: 'invalid_request', message: words },
  })
  await expect(sandbox.apiKeys.add(typo as never)).rejects.toThrow(new ConfigError(words))
  expect(() => createSandbox({ keys: [typo as never] })).toThrow(new ConfigError(`keys[0].${words}`))
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-typo-')), 'keys.json')
  await writeFile(file, JSON.stringify({ keys: [typo] }))
  await expect(loadKeysFile(file)).rejects.toThrow(new ConfigError(`keys file ${file}: keys[0].${words}`))
  expect(sandbox.keys.some((apiKey) => apiKey.key === typo.key)).toBe(false)
})

it('refuses in the library every quota change the admin API refuses, in the same words after the name of the call', async () => {
  const refused: Array<[unknown, string]> = [
    [{ remaining: 1.5 }, 'remaining must be an integer'],
    [{ remainin: 3 }, 'remainin: unknown field; did you mean remaining?'],
    [{ remaining: -1 }, 'remaining must be at least 0'],
    [{ banned: 0 }, 'banned must be above 0'],
  ]
  for (const [change, words] of refused) {
    expect(await admin('PATCH', '/keys/sandbox-pro-key', change), JSON.stringify(change)).toMatchObject({
      status: 400,
      body: { message: words },
    })
    expect(() => sandbox.quota.set('sandbox-pro-key', change as never), JSON.stringify(change)).toThrow(
      new ConfigError(`quota.${words}`),
    )
  }
  expect(await admin('PATCH', '/keys/sandbox-pro-key', {})).toMatchObject({
    status: 400,
    body: { message: 'the body must name at least one of remaining, minuteRemaining, dayRemaining, banned' },
  })
  expect(() => sandbox.quota.set('sandbox-pro-key', {})).toThrow(
    new ConfigError('quota must name at least one of remaining, minuteRemaining, dayRemaining, banned'),
  )
  expect(sandbox.quota.get('sandbox-pro-key').remaining).toBe(300)
})

it('refuses an option createSandbox does not take, for plain JavaScript too: the nearest name, or the names it takes', () => {
  expect(() => createSandbox({ sed: 3 } as never)).toThrow(new ConfigError('sed: unknown field; did you mean seed?'))
  expect(() => createSandbox({ adminTokn: 'admin-token-2' } as never)).toThrow(
    new ConfigError('adminTokn: unknown field; did you mean adminToken?'),
  )
  expect(() => createSandbox({ 'sandbox-free-key': true } as never)).toThrow(
    /^the options object has an unknown field; known fields: baseUrl, seed, pets, /,
  )
})

it('refuses an option reset, requests and har do not take, for plain JavaScript too, and changes nothing', async () => {
  const { now: _, ...before } = await sandbox.state()
  expect(() => sandbox.reset({ clok: true } as never)).toThrow(
    new ConfigError('reset.clok: unknown field; did you mean clock?'),
  )
  expect(() => sandbox.requests({ limt: 3 } as never)).toThrow(
    new ConfigError('requests.limt: unknown field; did you mean limit?'),
  )
  expect(() => sandbox.har({ limt: 3 } as never)).toThrow(
    new ConfigError('har.limt: unknown field; did you mean limit?'),
  )
  expect(await sandbox.state()).toMatchObject(before)
  expect(sandbox.requests({ limit: 1 })).toEqual(sandbox.requests(1))
})
