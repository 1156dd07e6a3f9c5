import { expect, it } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { api, sandbox } = useInProcessSandbox({
  banAfter: 0,
  keys: [
    { key: 'only-one-request', plan: 'enterprise', perMinute: 1, perDay: 100 },
    { key: 'plenty-of-quota', plan: 'business' },
  ],
})

const DEPRECATION_HEADERS = {
  deprecation: `@${Date.UTC(2025, 11, 5) / 1000}`,
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
}

function expectDeprecationHeaders(response: Response) {
  expect(response.headers.get('deprecation')).toBe(DEPRECATION_HEADERS.deprecation)
  expect(response.headers.get('sunset')).toBe(DEPRECATION_HEADERS.sunset)
  expect(response.headers.get('link')).toBe('</v1/pets>; rel="successor-version"')
}

it.each([
  ['200', '/pets/1', 'plenty-of-quota', 200],
  ['404', '/pets/987654', 'plenty-of-quota', 404],
  ['400', '/pets/abc', 'plenty-of-quota', 400],
  ['401', '/pets/1', null, 401],
  ['HEAD 200', '/pets/1', 'plenty-of-quota', 200],
] as const)('marks getPet %s as deprecated with Deprecation, Sunset and Link', async (name, path, key, status) => {
  const response = await api(path, { key, method: name.startsWith('HEAD') ? 'HEAD' : 'GET' })
  expect(response.status).toBe(status)
  expectDeprecationHeaders(response)
})

it('marks the 429 of getPet, and its ban, as deprecated too', async () => {
  expect((await api('/pets/1', { key: 'only-one-request' })).status).toBe(200)
  const limited = await api('/pets/1', { key: 'only-one-request' })
  expect(limited.status).toBe(429)
  expectDeprecationHeaders(limited)
  const banned = await api('/pets/1', { key: 'only-one-request' })
  expect(((await banned.json()) as { code: string }).code).toBe('temporarily_banned')
  expectDeprecationHeaders(banned)
})

it.each([
  ['listPets', '/pets', {}],
  [
    'createPet',
    '/pets',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' },
  ],
  ['a 404', '/pets/1/nothing-here', {}],
  ['a 405', '/pets/1', { method: 'DELETE' }],
])('sends no deprecation headers on %s', async (_, path, init) => {
  const response = await api(path, { key: 'plenty-of-quota', ...(init as RequestInit) })
  for (const header of ['deprecation', 'sunset', 'link']) expect(response.headers.get(header)).toBeNull()
})

it('answers 410 gone from the sunset instant on, pointing at the replacement', async () => {
  sandbox.clock.set('2030-12-04T23:59:50Z')
  expect((await api('/pets/1', { key: 'plenty-of-quota' })).status).toBe(200)
  sandbox.clock.set('2030-12-05T00:00:00Z')
  const gone = await api('/pets/1', { key: 'plenty-of-quota' })
  expect(gone.status).toBe(410)
  expectDeprecationHeaders(gone)
  const body = (await gone.json()) as { code: string; message: string }
  expect(body.code).toBe('gone')
  expect(body.message).toContain('/v1/pets')
  // Unknown ids are gone too: the operation no longer exists.
  expect((await api('/pets/987654', { key: 'plenty-of-quota' })).status).toBe(410)
  // listPets is unaffected.
  expect((await api('/pets', { key: 'plenty-of-quota' })).status).toBe(200)
  sandbox.clock.set(Date.now())
})

it('still asks for a key after the sunset', async () => {
  sandbox.clock.set('2031-01-01T00:00:00Z')
  expect((await api('/pets/1', { key: null })).status).toBe(401)
  sandbox.clock.set(Date.now())
})
