import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../src/core/request-log/create-request-log.js'
import { adminContractViolations } from '../support/admin-contract.js'
import { contractViolations } from '../support/contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startUpstream, UPSTREAM_KEY, type Mutation } from '../support/mutants/start-upstream.js'
import { listenOnLoopback, rawExchange } from '../support/raw-http.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

// The proxy's request list (`GET /__sandbox/requests`, the dashboard's event stream): every answer
// the proxy gives, forwarded or not, listed once, masked, with its source.
const ADMIN_TOKEN = 'proxy-requests-admin-token'
const contract = createContractChecker()
const admin = createContractChecker(adminContractViolations, 'admin responses that break fixtures/admin-openapi.yaml')

const running: Array<{ close(): Promise<void> } | CliProcess> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop() : item.close())))
})

/** An entry of the proxy's list, as the admin document describes it. */
type Listed = RequestLogEntry

/** An upstream that has not built createPet yet (501), so the proxy falls back for it; the rest is the sandbox's. */
const withoutCreate: Mutation = async (request, answer) =>
  request.method === 'POST'
    ? Response.json({ code: 'not_implemented', message: 'later', status: 501 }, { status: 501 })
    : answer(request)

async function proxy(upstreamUrl: string, args: string[] = []): Promise<CliProcess & { origin: string }> {
  const keys = join(await mkdtemp(join(tmpdir(), 'proxy-requests-')), 'keys.json')
  await writeFile(keys, JSON.stringify({ keys: [{ key: UPSTREAM_KEY, plan: 'pro' }] }))
  const cli = await startCli(
    ['--upstream', upstreamUrl, '--log', 'off', '--admin-token', ADMIN_TOKEN, '--keys', keys, ...args],
    {},
    'proxy',
  )
  running.push(cli)
  return { ...cli, origin: cli.url.replace(/\/v1$/, '') }
}

/** A request through the proxy with the upstream's key, held to the API's contract. */
async function call(cli: CliProcess, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('authorization', `Bearer ${UPSTREAM_KEY}`)
  const response = await fetch(`${cli.url}${path}`, { ...init, headers })
  contract.check(init.method ?? 'GET', `${cli.url}${path}`, response.clone())
  return response
}

/** An admin call, held to fixtures/admin-openapi.yaml. */
async function adminCall(origin: string, path: string, init: RequestInit & { token?: string } = {}): Promise<Response> {
  const { token = ADMIN_TOKEN, ...rest } = init
  const url = `${origin}/__sandbox${path}`
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (rest.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(url, { ...rest, headers })
  admin.check(rest.method ?? 'GET', url, response.clone())
  return response
}

async function listed(origin: string, query = ''): Promise<Listed[]> {
  const response = await adminCall(origin, `/requests${query}`)
  expect(response.status).toBe(200)
  expect(response.headers.get('x-sandbox-source')).toBe('sandbox')
  return ((await response.json()) as { requests: Listed[] }).requests
}

const brief = (entry: Listed) => `${entry.method} ${entry.path} ${entry.status} ${entry.source} ${entry.key}`

it('lists what the upstream answered and what the sandbox answered in its place, once each, masked, oldest first', async () => {
  const upstream = await startUpstream(withoutCreate)
  running.push(upstream)
  const cli = await proxy(upstream.url, ['--fallback'])

  expect((await call(cli, `/pets?limit=2&api_key=${UPSTREAM_KEY}`)).headers.get('x-sandbox-source')).toBe('upstream')
  const created = await call(cli, '/pets', {
    method: 'POST',
    body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
    headers: { 'content-type': 'application/json' },
  })
  expect(created.status).toBe(201)
  expect(created.headers.get('x-sandbox-source')).toBe('sandbox')
  expect((await call(cli, '/pets/1')).headers.get('x-sandbox-source')).toBe('upstream')
  // A key in the wrong place, the path, is masked too.
  expect((await call(cli, `/pets/${UPSTREAM_KEY}`)).status).toBe(400)
  // Neither the admin API nor the probes are listed, as under `start`.
  expect((await adminCall(cli.origin, '/proxy')).status).toBe(200)
  expect((await fetch(`${cli.origin}/healthz`)).status).toBe(200)

  const masked = expect.stringMatching(/^upst…#[0-9a-f]{4}$/)
  const requests = await listed(cli.origin)
  expect(requests.map(brief)).toEqual([
    expect.stringMatching(/^GET \/v1\/pets\?limit=2&api_key=… 200 upstream upst…#[0-9a-f]{4}$/),
    expect.stringMatching(/^POST \/v1\/pets 201 sandbox upst…/),
    expect.stringMatching(/^GET \/v1\/pets\/1 200 upstream upst…/),
    expect.stringMatching(/^GET \/v1\/pets\/upst…#[0-9a-f]{4} 400 upstream upst…/),
  ])
  for (const entry of requests) {
    expect(entry.key).toEqual(masked)
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false)
    expect(entry.durationMs).toBeGreaterThanOrEqual(0)
  }
  expect(JSON.stringify(requests)).not.toContain(UPSTREAM_KEY)
  expect(upstream.received.map((request) => request.method)).toEqual(['GET', 'POST', 'GET', 'GET'])

  // `limit` as under `start`: the newest ones, and a bad value is a 400 Error body that changes nothing.
  expect((await listed(cli.origin, '?limit=1')).map(brief)).toEqual([brief(requests[3]!)])
  const refused = await adminCall(cli.origin, '/requests?limit=many')
  expect(refused.status).toBe(400)
  expect(await refused.json()).toMatchObject({ code: 'invalid_request', status: 400 })
  expect((await adminCall(cli.origin, '/requests', { token: 'not-the-admin-token' })).status).toBe(401)
  expect((await adminCall(cli.origin, '/requests', { method: 'DELETE' })).status).toBe(405)
  // The admin calls the token let through are not listed; the gate's refusal is, masked.
  const after = await listed(cli.origin)
  expect(after.slice(0, 4)).toEqual(requests)
  expect(after.slice(4).map(brief)).toEqual([
    expect.stringMatching(/^GET \/__sandbox\/requests 401 sandbox refused:…#[0-9a-f]{4}$/),
  ])
  expect(JSON.stringify(after)).not.toContain('not-the-admin-token')
})

it("lists the proxy's own refusals (502, 400, 413) as the sandbox's", async () => {
  const gone = await startUpstream()
  await gone.close()
  const cli = await proxy(gone.url)
  const unreachableUrl = `${cli.url}/pets?token=secret-in-the-query`
  const unreachable = await fetch(unreachableUrl, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } })
  expect(unreachable.status).toBe(502)
  // The proxy cannot know the upstream's quota, so its 502 has no X-RateLimit-* (docs/verify-and-proxy.md); the rest holds.
  const violations = await contractViolations('GET', unreachableUrl, unreachable)
  expect(violations).toHaveLength(6)
  for (const violation of violations) expect(violation).toMatch(/x-ratelimit-(limit|remaining|reset)/)
  // Not the contract's paths: a target that is no URL, and a body larger than the proxy buffers.
  const notUrl = await rawExchange(cli.url, 'GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
  expect(notUrl?.status).toBe(400)
  const huge = 16 * 1024 * 1024 + 1
  const tooLarge = await rawExchange(
    cli.url,
    Buffer.concat([
      Buffer.from(
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${huge}\r\n\r\n`,
      ),
      Buffer.alloc(huge, 32),
    ]),
    { timeoutMs: 20_000 },
  )
  expect(tooLarge?.status).toBe(413)

  expect((await listed(cli.origin)).map(brief)).toEqual([
    expect.stringMatching(/^GET \/v1\/pets\?token=… 502 sandbox upst…/),
    'GET (not a URL) 400 sandbox -',
    'POST /v1/pets 413 sandbox -',
  ])
})

it("lists a fallback's injected faults as `start` lists them: the fault's mark, and a dropped connection as 0", async () => {
  const gone = await startUpstream()
  await gone.close()
  const cli = await proxy(gone.url, ['--fallback'])
  const set = await adminCall(cli.origin, '/faults', {
    method: 'PUT',
    body: JSON.stringify({ operations: { listPets: { errorRate: 1 } }, kinds: ['503'] }),
  })
  expect(set.status).toBe(200)
  const failed = await call(cli, '/pets')
  expect(failed.status).toBe(503)
  expect(failed.headers.get('x-sandbox-source')).toBe('sandbox')
  const drop = await adminCall(cli.origin, '/faults', {
    method: 'PUT',
    body: JSON.stringify({ operations: { getPet: { errorRate: 1 } }, kinds: ['drop'] }),
  })
  expect(drop.status).toBe(200)
  await expect(fetch(`${cli.url}/pets/1`, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } })).rejects.toThrow()

  const requests = await listed(cli.origin)
  expect(requests.map((entry) => [entry.path, entry.status, entry.source, entry.fault])).toEqual([
    ['/v1/pets', 503, 'sandbox', 'error=503'],
    ['/v1/pets/1', 0, 'sandbox', 'drop'],
  ])
})

it('pushes each answer on the event stream as it is written, with its source, and a reset through the proxy empties the list', async () => {
  const upstream = await startUpstream()
  running.push(upstream)
  const cli = await proxy(upstream.url)
  const stream = new AbortController()
  const events = await fetch(`${cli.origin}/__sandbox/events`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    signal: stream.signal,
  })
  expect(events.status).toBe(200)
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader()
  try {
    let text = ''
    const event = /event: request\ndata: (.*)\n\n/
    const firstEvent = (async () => {
      while (!event.test(text)) {
        const { value, done } = await reader.read()
        if (done) break
        text += value
      }
      return text
    })()
    // The stream is open before the request: wait for its first comment, then make the request.
    await expect.poll(() => text.includes(': petstore-sandbox request log')).toBe(true)
    expect((await call(cli, '/pets?limit=1')).status).toBe(200)
    const entry = JSON.parse(event.exec(await firstEvent)![1]!) as Listed
    expect(entry).toMatchObject({ method: 'GET', path: '/v1/pets?limit=1', status: 200, source: 'upstream' })
  } finally {
    stream.abort()
  }

  expect(await listed(cli.origin)).toHaveLength(1)
  expect((await adminCall(cli.origin, '/reset', { method: 'POST' })).status).toBe(200)
  expect(await listed(cli.origin)).toEqual([])
})

it("lists the upstream's answers to a named session in that session's list and HAR, not the default one's", async () => {
  const upstream = await startUpstream(withoutCreate)
  running.push(upstream)
  const cli = await proxy(upstream.url, ['--fallback'])
  expect(
    (await call(cli, '/pets?limit=1', { headers: { 'x-sandbox-session': 'worker-1' } })).headers.get(
      'x-sandbox-source',
    ),
  ).toBe('upstream')
  expect(
    (await call(cli, '/pets?limit=2', { headers: { baggage: 'sandbox-session=worker-2' } })).headers.get(
      'x-sandbox-source',
    ),
  ).toBe('upstream')
  const created = await call(cli, '/pets', {
    method: 'POST',
    body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
    headers: { 'content-type': 'application/json', 'x-sandbox-session': 'worker-1' },
  })
  expect(created.headers.get('x-sandbox-source')).toBe('sandbox')
  expect((await call(cli, '/pets?limit=3')).headers.get('x-sandbox-source')).toBe('upstream')
  // A key of the keys file names no session (D35): the upstream's answer is the default session's,
  // and the sandbox refuses the name without echoing it.
  expect(
    (await call(cli, '/pets?limit=4', { headers: { 'x-sandbox-session': UPSTREAM_KEY } })).headers.get(
      'x-sandbox-source',
    ),
  ).toBe('upstream')
  const keyNamed = await call(cli, '/pets', {
    method: 'POST',
    body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
    headers: { 'content-type': 'application/json', 'x-sandbox-session': UPSTREAM_KEY },
  })
  expect(keyNamed.status).toBe(400)
  expect(await keyNamed.json()).toEqual({
    code: 'invalid_request',
    status: 400,
    message: 'X-Sandbox-Session must not be an API key or the admin token',
  })

  const paths = (entries: Listed[]) => entries.map((entry) => `${entry.path} ${entry.source}`)
  const inDefault = await listed(cli.origin)
  expect(paths(inDefault)).toEqual(['/v1/pets?limit=3 upstream', '/v1/pets?limit=4 upstream', '/v1/pets sandbox'])
  expect(JSON.stringify(inDefault)).not.toContain(UPSTREAM_KEY)
  expect(paths(await listed(cli.origin, '?session=worker-1'))).toEqual([
    '/v1/pets?limit=1 upstream',
    '/v1/pets sandbox',
  ])
  expect(paths(await listed(cli.origin, '?session=worker-2'))).toEqual(['/v1/pets?limit=2 upstream'])

  const response = await adminCall(cli.origin, '/requests.har?session=worker-1')
  expect(response.status).toBe(200)
  const har = (await response.json()) as { log: { entries: Array<{ request: { url: string }; _session?: string }> } }
  expect(har.log.entries.map((entry) => [new URL(entry.request.url).search, entry._session])).toEqual([
    ['?limit=1', 'worker-1'],
    ['', 'worker-1'],
  ])
})

it('keeps as many answers as --keep-requests says, the newest, as `start` does', async () => {
  const upstream = await startUpstream()
  running.push(upstream)
  const cli = await proxy(upstream.url, ['--keep-requests', '2'])
  for (const limit of [1, 2, 3]) expect((await call(cli, `/pets?limit=${limit}`)).status).toBe(200)
  expect((await listed(cli.origin)).map((entry) => entry.path)).toEqual(['/v1/pets?limit=2', '/v1/pets?limit=3'])
})

it('masks a key the upstream echoes in Set-Cookie and Link, in the list and in the HAR', async () => {
  const echoing = await listenOnLoopback((incoming, outgoing) => {
    incoming.resume()
    incoming.on('end', () => {
      const key = incoming.headers.authorization?.split(' ')[1] ?? ''
      outgoing.writeHead(200, [
        'Content-Type',
        'application/json',
        'X-RateLimit-Limit',
        '60',
        'X-RateLimit-Remaining',
        '59',
        'X-RateLimit-Reset',
        '4102444800',
        'Set-Cookie',
        `session=${key}; Path=/; HttpOnly`,
        'Link',
        `<${'http://upstream.test'}/v1/pets?cursor=${key}>; rel="next"`,
      ])
      outgoing.end('[]')
    })
  })
  running.push(echoing)
  const cli = await proxy(`${echoing.origin}/v1`)
  const answered = await fetch(`${cli.url}/pets`, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } })
  expect(answered.status).toBe(200)
  // The client gets them as the upstream sent them: only what the proxy shows is masked.
  expect(answered.headers.get('set-cookie')).toContain(UPSTREAM_KEY)

  const [entry] = await listed(cli.origin)
  const shown = (name: string) => entry!.responseHeaders!.find((header) => header.name.toLowerCase() === name)!.value
  expect(shown('set-cookie')).toMatch(/^session=upst…#[0-9a-f]{4}; Path=\/; HttpOnly$/)
  expect(shown('link')).toMatch(/^<http:\/\/upstream\.test\/v1\/pets\?cursor=upst…#[0-9a-f]{4}>; rel="next"$/)
  const har = await adminCall(cli.origin, '/requests.har')
  const text = await har.text()
  expect(text).toContain('session=upst…')
  for (const where of [JSON.stringify(await listed(cli.origin)), text]) expect(where).not.toContain(UPSTREAM_KEY)
})

it('answers /__sandbox/state, /requests and /clock with the shapes it has under `start`', async () => {
  const upstream = await startUpstream()
  running.push(upstream)
  const proxied = await proxy(upstream.url)
  const started = await startCli(['--log', 'off', '--admin-token', ADMIN_TOKEN])
  running.push(started)
  const startedOrigin = started.url.replace(/\/v1$/, '')
  expect((await call(proxied, '/pets?limit=1')).status).toBe(200)
  const direct = await fetch(`${started.url}/pets?limit=1`, { headers: { authorization: 'Bearer sandbox-free-key' } })
  contract.check('GET', `${started.url}/pets?limit=1`, direct)
  for (const path of ['/state', '/requests', '/clock']) {
    const [underProxy, underStart] = await Promise.all([
      adminCall(proxied.origin, path),
      adminCall(startedOrigin, path),
    ])
    expect([underProxy.status, underStart.status]).toEqual([200, 200])
    const [proxyBody, startBody] = [await underProxy.json(), await underStart.json()]
    // Only the proxy's list says who answered each request.
    if (path === '/requests')
      for (const listedEntry of (proxyBody as { requests: Listed[] }).requests)
        expect(listedEntry.source).toBe('upstream')
    expect(shape(proxyBody), path).toEqual(shape(startBody))
  }
})

/** A JSON value's shape: its object keys, arrays by their first item, and each leaf's type; `source` left out. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])]
  if (typeof value !== 'object' || value === null) return value === null ? 'null' : typeof value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => name !== 'source')
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, item]) => [name, shape(item)]),
  )
}
