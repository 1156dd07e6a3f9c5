import { expect, it } from 'vitest'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const today = useCliSandbox(['--cors-origin', 'http://localhost:5173', 'http://127.0.0.1:8080'])
const afterSunset = useCliSandbox(['--now', '2030-12-06T00:00:00Z'])

function expectDeprecation(response: Response) {
  expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2025, 11, 5) / 1000}`)
  expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  expect(response.headers.get('link')).toMatch(/^<\/v1\/pets>; rel="successor-version"/)
}

it.each([
  ['/pets/1', 'sandbox-enterprise-key', 200],
  ['/pets/424242', 'sandbox-enterprise-key', 404],
  ['/pets/abc', 'sandbox-enterprise-key', 400],
  ['/pets/1', null, 401],
] as const)('carries the deprecation headers on GET %s (%s) over HTTP', async (path, key, status) => {
  const response = await today.call(path, { key })
  expect(response.status).toBe(status)
  expectDeprecation(response)
})

it('carries them on a 429 of getPet over HTTP', async () => {
  // The address bucket of keyless requests allows 60 a minute; spend it on getPet.
  // Up to two minutes' worth, should the UTC minute roll over half-way.
  let last: Response | undefined
  for (let i = 0; i < 125 && last?.status !== 429; i++) last = await today.call('/pets/1', { key: 'not-a-real-key' })
  expect(last!.status).toBe(429)
  expectDeprecation(last!)
})

it('sends none of them on listPets and createPet over HTTP', async () => {
  const list = await today.call('/pets')
  const create = await today.call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":2}',
  })
  for (const response of [list, create]) {
    expect(response.headers.get('deprecation')).toBeNull()
    expect(response.headers.get('sunset')).toBeNull()
    expect(response.headers.get('link')).toBeNull()
  }
})

it('answers getPet with 410 gone after the sunset (start --now 2030-12-06T00:00:00Z)', async () => {
  const response = await afterSunset.call('/pets/1')
  expect(response.status).toBe(410)
  expectDeprecation(response)
  expect(await response.json()).toMatchObject({ code: 'gone', status: 410 })
  expect((await afterSunset.call('/pets?status=available')).status).toBe(200)
})

it('answers a preflight of an allowed origin without a key', async () => {
  const response = await today.call('/pets', {
    method: 'OPTIONS',
    key: null,
    headers: {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  })
  expect(response.status).toBe(204)
  expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, HEAD, OPTIONS')
  expect(response.headers.get('access-control-allow-headers')).toBe(
    'Authorization, Content-Type, Prefer, X-Sandbox-Session, baggage',
  )
})

it('answers a preflight to a path it does not serve over HTTP, spending nothing', async () => {
  for (const path of ['/petz', '/store/orders']) {
    const response = await today.call(path, {
      method: 'OPTIONS',
      key: null,
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(response.headers.get('access-control-allow-methods')).toContain('GET')
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'Authorization, Content-Type, Prefer, X-Sandbox-Session, baggage',
    )
  }
  const before = Number(
    (await today.call('/petz', { method: 'OPTIONS', key: null })).headers.get('x-ratelimit-remaining'),
  )
  for (let i = 0; i < 5; i++) expect((await today.call('/petz', { method: 'OPTIONS', key: null })).status).toBe(204)
  const after = Number(
    (await today.call('/petz', { method: 'OPTIONS', key: null })).headers.get('x-ratelimit-remaining'),
  )
  // Equal, or more should the minute have rolled over meanwhile; six spent requests would show.
  expect(after).toBeGreaterThanOrEqual(before)
})

it('does not allow an origin outside --cors-origin', async () => {
  const response = await today.call('/pets', { headers: { origin: 'http://localhost:9999' } })
  expect(response.headers.get('access-control-allow-origin')).toBeNull()
  const allowed = await today.call('/pets', { headers: { origin: 'http://127.0.0.1:8080' } })
  expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080')
  expect(allowed.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining')
})

it('answers HEAD over HTTP with the headers of GET and no body', async () => {
  const response = await today.call('/pets/1', { method: 'HEAD' })
  expect(response.status).toBe(200)
  expect(await response.text()).toBe('')
  expectDeprecation(response)
})

const rehearsal = useCliSandbox(['--deprecated-at', '2026-01-01T00:00:00Z', '--sunset', '2026-02-01T00:00:00Z'])

it('rehearses other deprecation dates given on the command line', async () => {
  const response = await rehearsal.call('/pets/1')
  expect(response.status).toBe(410)
  expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 0, 1) / 1000}`)
  expect(response.headers.get('sunset')).toBe('Sun, 01 Feb 2026 00:00:00 GMT')
})
