import { request as httpRequest } from 'node:http'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterEach, expect, it } from 'vitest'
import { adminContractViolations } from '../support/admin-contract.js'
import { contractViolations } from '../support/contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { MUTANTS } from '../support/mutants/mutants.js'
import { startUpstream, UPSTREAM_KEY, type Mutation, type Upstream } from '../support/mutants/start-upstream.js'
import { listenOnLoopback, rawExchange } from '../support/raw-http.js'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'
import { createSandbox } from '../../src/core/sandbox/create-sandbox.js'
import { createRequestLog } from '../../src/core/request-log/create-request-log.js'
import { createAnswerTail } from '../../src/core/pipeline/answer-tail.js'
import { createProxy } from '../../src/node/proxy/create-proxy.js'
import { createProxyStats } from '../../src/node/proxy/create-proxy-stats.js'
import { startServer } from '../../src/node/server/start-server.js'
import { runVerify } from '../../src/node/verify/run-verify.js'
import { VERIFY_PROMISES } from '../../src/node/verify/promises.js'
import { decidesOtherwise } from '../support/mutants/decides-otherwise.js'

const ADMIN_TOKEN = 'proxy-admin-token'
// Answers of the sandbox (as upstream or as fallback) and of the admin API are held to fixtures/;
// a mutant's answers break the contract on purpose, and the proxy's counting them is what is tested.
const contract = createContractChecker()
const admin = createContractChecker(adminContractViolations, 'admin responses that break fixtures/admin-openapi.yaml')

const running: Array<{ close(): Promise<void> } | CliProcess> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop() : item.close())))
})

async function upstream(mutation?: Mutation): Promise<Upstream> {
  const started = await startUpstream(mutation, (request, response) =>
    contract.check(request.method, request.url, response),
  )
  running.push(started)
  return started
}

async function proxy(upstreamUrl: string, args: string[] = []): Promise<CliProcess> {
  const cli = await startCli(
    ['--upstream', upstreamUrl, '--log', 'json', '--admin-token', ADMIN_TOKEN, ...args],
    {},
    'proxy',
  )
  running.push(cli)
  return cli
}

/** The proxy in this process, in front of `upstreamUrl` without fallback, on the one server as the CLI serves it. */
async function proxyInProcess(upstreamUrl: string, now: () => number) {
  const stats = createProxyStats({ upstream: upstreamUrl, fallback: false, upstreamTimeoutMs: 5_000 })
  const sandbox = createSandbox({ pets: 0 })
  const handlers = await createProxy({
    upstream: upstreamUrl,
    fallback: false,
    upstreamTimeoutMs: 5_000,
    sandboxHandlers: sandbox.originHandlers,
    stats,
    tail: createAnswerTail({ requestLog: createRequestLog(100), now }),
    now,
    secrets: () => ({ keys: sandbox.keys.map((apiKey) => apiKey.key) }),
  })
  const server = await startServer({ handlers, port: 0, host: '127.0.0.1' })
  running.push(server)
  return { url: server.url, stats, close: server.close }
}

/** A request through the proxy; every answer must say where it came from. */
async function call(
  cli: CliProcess,
  path: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<Response> {
  const { key = UPSTREAM_KEY, ...rest } = init
  const headers = new Headers(rest.headers)
  if (key !== null) headers.set('authorization', `Bearer ${key}`)
  const response = await fetch(`${cli.url}${path}`, { ...rest, headers })
  expect(['upstream', 'sandbox'], `X-Sandbox-Source of ${path}`).toContain(response.headers.get('x-sandbox-source'))
  return response
}

async function proxyState(cli: CliProcess) {
  const url = `${cli.url.replace(/\/v1$/, '')}/__sandbox/proxy`
  const response = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  admin.check('GET', url, response)
  expect(response.headers.get('x-sandbox-source')).toBe('sandbox')
  return (await response.json()) as {
    answers: { upstream: number; sandbox: number }
    fallbacks: { unreachable: number; timeout: number; missing: number }
    violations: {
      total: number
      byPromise: Record<string, number>
      recent: Array<{ promise: string; key: string; path: string }>
    }
    differences: {
      total: number
      byPromise: Record<string, number>
      recent: Array<{ promise: string; decisions: string; expected: string }>
    }
  }
}

/** A raw upstream answering fixed bytes, to see that the proxy forwards them and the request untouched. */
async function rawUpstream(
  answer: (request: {
    method: string
    url: string
    headers: Record<string, string | string[] | undefined>
    body: Buffer
  }) => { status: number; headers: string[]; body: Buffer } | 'hang',
) {
  const seen: Array<{
    method: string
    url: string
    headers: Record<string, string | string[] | undefined>
    body: Buffer
  }> = []
  const server = await listenOnLoopback((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request = {
        method: incoming.method!,
        url: incoming.url!,
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      }
      seen.push(request)
      const reply = answer(request)
      if (reply === 'hang') return
      outgoing.writeHead(reply.status, reply.headers)
      outgoing.end(reply.body)
    })
  })
  running.push(server)
  return { url: `${server.origin}/api/v1`, seen }
}

/** GET through node:http, which leaves a compressed body as it came. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode!, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }),
      )
    })
      .on('error', reject)
      .end()
  })
}

it('forwards the request as the client sent it and the answer as the upstream sent it, bytes and headers', async () => {
  const pets = gzipSync(JSON.stringify([{ id: 1, name: 'Ace', categoryId: 2, status: 'sold' }]))
  const stored = JSON.stringify({ id: 2, name: 'Biscuit', categoryId: 2, status: 'pending' })
  const rateLimit = ['X-RateLimit-Limit', '60', 'X-RateLimit-Remaining', '58', 'X-RateLimit-Reset', '4102444800']
  const raw = await rawUpstream(({ method }) =>
    method === 'POST'
      ? {
          status: 201,
          headers: ['Content-Type', 'application/json; charset=utf-8', ...rateLimit],
          body: Buffer.from(stored),
        }
      : {
          status: 200,
          headers: [
            'Content-Type',
            'application/json; charset=utf-8',
            'Content-Encoding',
            'gzip',
            'X-RateLimit-Limit',
            '60',
            'X-RateLimit-Remaining',
            '59',
            'X-RateLimit-Reset',
            '4102444800',
            'X-Upstream-Trace',
            'abc',
            'Set-Cookie',
            'a=1',
            'Set-Cookie',
            'b=2',
          ],
          body: pets,
        },
  )
  const cli = await proxy(raw.url)
  const answer = await rawGet(`${cli.url}/pets?status=sold&limit=5`, {
    authorization: `Bearer ${UPSTREAM_KEY}`,
    'x-client-trace': 'xyz',
    'accept-encoding': 'gzip',
  })
  expect(answer.status).toBe(200)
  expect(answer.body.equals(pets)).toBe(true)
  const pairs = Array.from(
    { length: answer.rawHeaders.length / 2 },
    (_, i) => [answer.rawHeaders[2 * i]!, answer.rawHeaders[2 * i + 1]!] as [string, string],
  )
  // The contract is checked on what a client reads: the body decompressed, as fetch would.
  const decoded = new Response(gunzipSync(answer.body), {
    status: 200,
    headers: pairs.filter(([name]) => name !== 'Content-Encoding' && name !== 'Content-Length'),
  })
  contract.check('GET', `${cli.url}/pets?status=sold&limit=5`, decoded)
  expect(pairs.map(([name, value]) => `${name}: ${value}`)).toEqual(
    expect.arrayContaining([
      'Content-Encoding: gzip',
      'X-Upstream-Trace: abc',
      'Set-Cookie: a=1',
      'Set-Cookie: b=2',
      'X-RateLimit-Remaining: 59',
      'X-Sandbox-Source: upstream',
    ]),
  )
  const [seen] = raw.seen
  expect(seen).toMatchObject({ method: 'GET', url: '/api/v1/pets?status=sold&limit=5' })
  expect(seen!.headers).toMatchObject({
    authorization: `Bearer ${UPSTREAM_KEY}`,
    'x-client-trace': 'xyz',
    'accept-encoding': 'gzip',
  })

  const body = '{"name":"Biscuit","categoryId":2,   "status":"pending"}'
  const created = await call(cli, '/pets', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  contract.check('POST', `${cli.url}/pets`, created.clone())
  expect(created.status).toBe(201)
  expect(await created.text()).toBe(stored)
  expect(raw.seen[1]!.body.toString()).toBe(body)
  expect(raw.seen[1]!.headers['content-type']).toBe('application/json')
})

it("passes the sandbox as upstream with no violation, and the answers are the sandbox's", async () => {
  const sandbox = await upstream()
  const cli = await proxy(sandbox.url)
  const listed = await call(cli, '/pets?limit=3')
  contract.check('GET', `${cli.url}/pets?limit=3`, listed.clone())
  expect(await listed.json()).toEqual(sandbox.sandbox.pets.all().slice(0, 3))
  for (const [path, init] of [
    ['/pets', { key: null }],
    ['/pets?limit=0', {}],
    ['/pets/1', {}],
    ['/pets/424242', {}],
    [
      '/pets',
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
        headers: { 'content-type': 'application/json' },
      },
    ],
  ] as const) {
    const response = await call(cli, path, init)
    contract.check(init.method ?? 'GET', `${cli.url}${path}`, response)
    expect(response.headers.get('x-sandbox-source')).toBe('upstream')
  }
  // A name sent with spaces around it is stored trimmed (D5): still the name sent, no violation.
  const trimmed = await call(cli, '/pets', {
    method: 'POST',
    body: JSON.stringify({ name: '  Biscuit  ', categoryId: 2 }),
    headers: { 'content-type': 'application/json' },
  })
  contract.check('POST', `${cli.url}/pets`, trimmed.clone())
  expect(((await trimmed.json()) as { name: string }).name).toBe('Biscuit')
  const state = await proxyState(cli)
  expect(state.answers).toEqual({ upstream: 7, sandbox: 0 })
  expect(state.violations).toEqual({ total: 0, byPromise: {}, recent: [] })
  expect(state.differences).toEqual({ total: 0, byPromise: {}, recent: [] })
})

it("counts no violation in front of a backend that keeps the spec and decides every open point otherwise, only the decisions' differences", async () => {
  const otherwise = await startUpstream(decidesOtherwise())
  running.push(otherwise)
  const clock = otherwise.sandbox.clock
  const proxied = await proxyInProcess(otherwise.url, clock.now)
  const verified = await runVerify({
    baseUrl: proxied.url,
    key: UPSTREAM_KEY,
    writes: true,
    spendQuota: true,
    maxQuotaRequests: 1000,
    announce: () => {},
    now: clock.now,
    sleep: async (ms) => clock.advance(ms),
  })
  expect(verified.failed).toBe(0)
  const { violations, differences } = proxied.stats.snapshot()
  expect(violations).toEqual({ total: 0, byPromise: {}, recent: [] })
  expect(Object.keys(differences.byPromise).sort()).toEqual([
    'ascending-ids',
    'deprecation-headers',
    'invalid-query-refused',
    'retry-after-seconds',
    'sandbox-contract',
  ])
  expect(differences.recent.find((difference) => difference.promise === 'retry-after-seconds')).toMatchObject({
    decisions: 'D14',
    status: 429,
  })
})

it('counts the violations of a drifting upstream per promise, logs them with the key masked, and still forwards the answers', async () => {
  const mutant = MUTANTS.find((candidate) => candidate.name === 'no X-RateLimit-Remaining')!
  const cli = await proxy((await upstream(mutant.create())).url)
  for (let i = 0; i < 3; i++) {
    const response = await call(cli, `/pets?limit=2&api_key=${UPSTREAM_KEY}`)
    expect(response.status).toBe(200)
    expect(response.headers.has('x-ratelimit-remaining')).toBe(false)
  }
  const state = await proxyState(cli)
  expect(state.violations.byPromise['rate-limit-headers']).toBe(3)
  expect(state.violations.byPromise['matches-contract']).toBe(3)
  expect(state.violations.recent.find((entry) => entry.promise === 'rate-limit-headers')).toMatchObject({
    key: expect.stringMatching(/^upst…#[0-9a-f]{4}$/),
    path: '/v1/pets?limit=2&api_key=…',
  })
  await expect
    .poll(
      () =>
        cli
          .output()
          .split('\n')
          .filter((line) => line.includes('"violation":"rate-limit-headers"')).length,
    )
    .toBe(3)
  expect(cli.output()).not.toContain(UPSTREAM_KEY)
  expect(cli.output()).toContain('"source":"upstream"')
})

it('counts a limit=101 the upstream accepts under the decision that forbids it, apart from the violations of the spec', async () => {
  const mutant = MUTANTS.find((candidate) => candidate.name === 'limit=101 accepted')!
  const cli = await proxy((await upstream(mutant.create())).url)
  expect((await call(cli, '/pets?limit=101')).status).toBe(200)
  const state = await proxyState(cli)
  expect(state.differences.byPromise).toEqual({ 'invalid-query-refused': 1 })
  expect(state.differences.recent).toMatchObject([
    { promise: 'invalid-query-refused', decisions: 'D3', expected: '400 for limit=101' },
  ])
  expect(state.violations).toEqual({ total: 0, byPromise: {}, recent: [] })
  await expect.poll(() => cli.output()).toContain('"difference":"invalid-query-refused"')
})

it('falls back to the sandbox when the upstream is unreachable, and answers 502 without --fallback', async () => {
  const gone = await startUpstream()
  await gone.close()
  const withFallback = await proxy(gone.url, ['--fallback'])
  const answered = await call(withFallback, '/pets?limit=2', { key: 'sandbox-free-key' })
  contract.check('GET', `${withFallback.url}/pets?limit=2`, answered.clone())
  expect(answered.status).toBe(200)
  expect(answered.headers.get('x-sandbox-source')).toBe('sandbox')
  expect(await answered.json()).toHaveLength(2)
  expect((await proxyState(withFallback)).fallbacks).toEqual({ unreachable: 1, timeout: 0, missing: 0 })

  const without = await proxy(gone.url)
  const refused = await call(without, '/pets', { key: 'sandbox-free-key' })
  expect(refused.status).toBe(502)
  expect(refused.headers.get('x-sandbox-source')).toBe('sandbox')
  expect(await refused.clone().json()).toMatchObject({ code: 'upstream_unreachable', status: 502 })
  await expectOnlyRateLimitHeadersMissing(`${without.url}/pets`, refused)
})

it('falls back to the sandbox when the upstream does not answer within --upstream-timeout, and answers 504 without --fallback', async () => {
  const silent = await rawUpstream(() => 'hang')
  const withFallback = await proxy(silent.url, ['--fallback', '--upstream-timeout', '200'])
  const answered = await call(withFallback, '/pets/1', { key: 'sandbox-free-key' })
  contract.check('GET', `${withFallback.url}/pets/1`, answered.clone())
  expect(answered.status).toBe(200)
  expect(answered.headers.get('x-sandbox-source')).toBe('sandbox')
  expect((await proxyState(withFallback)).fallbacks).toEqual({ unreachable: 0, timeout: 1, missing: 0 })

  const without = await proxy(silent.url, ['--upstream-timeout', '200'])
  const refused = await call(without, '/pets', { key: 'sandbox-free-key' })
  expect(refused.status).toBe(504)
  expect(await refused.clone().json()).toMatchObject({ code: 'upstream_timeout', status: 504 })
  await expectOnlyRateLimitHeadersMissing(`${without.url}/pets`, refused)
})

it("mocks what is missing: 501 or a 404 for an operation of the contract goes to the sandbox; getPet's own 404 is forwarded", async () => {
  const missing: Mutation = async (request, answer) => {
    const path = new URL(request.url).pathname
    if (request.method === 'POST')
      return Response.json({ code: 'not_implemented', message: 'later', status: 501 }, { status: 501 })
    if (path === '/v1/pets')
      return Response.json({ code: 'not_found', message: 'no route', status: 404 }, { status: 404 })
    return answer(request)
  }
  const cli = await proxy((await upstream(missing)).url, ['--fallback', '--keys', await keysFile()])
  const created = await call(cli, '/pets', {
    method: 'POST',
    body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
    headers: { 'content-type': 'application/json' },
  })
  contract.check('POST', `${cli.url}/pets`, created.clone())
  expect(created.status).toBe(201)
  expect(created.headers.get('x-sandbox-source')).toBe('sandbox')
  const listed = await call(cli, '/pets')
  contract.check('GET', `${cli.url}/pets`, listed.clone())
  expect(listed.status).toBe(200)
  expect(listed.headers.get('x-sandbox-source')).toBe('sandbox')
  const unknown = await call(cli, '/pets/424242')
  contract.check('GET', `${cli.url}/pets/424242`, unknown.clone())
  expect(unknown.status).toBe(404)
  expect(unknown.headers.get('x-sandbox-source')).toBe('upstream')
  expect((await proxyState(cli)).fallbacks).toEqual({ unreachable: 0, timeout: 0, missing: 2 })
})

it('says where every answer came from, outside /v1 and on the admin API too', async () => {
  const cli = await proxy((await upstream()).url)
  const outside = await call(cli, '/../health', { key: null })
  contract.check('GET', `${cli.url.replace(/\/v1$/, '')}/health`, outside.clone())
  expect(outside.status).toBe(404)
  expect(outside.headers.get('x-sandbox-source')).toBe('sandbox')
  const origin = cli.url.replace(/\/v1$/, '')
  const denied = await fetch(`${origin}/__sandbox/proxy`, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } })
  admin.check('GET', `${origin}/__sandbox/proxy`, denied.clone())
  expect(denied.status).toBe(401)
  expect(denied.headers.get('x-sandbox-source')).toBe('sandbox')
  const sandboxAdmin = await fetch(`${origin}/__sandbox/health`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  admin.check('GET', `${origin}/__sandbox/health`, sandboxAdmin.clone())
  expect(sandboxAdmin.headers.get('x-sandbox-source')).toBe('sandbox')
  expect(await cli.stop('SIGTERM')).toEqual({ code: 0, signal: null })
  expect(cli.output()).toContain('Shutting down: finishing in-flight requests')
})

const watched: Array<{ name: string; counted: boolean }> = []

for (const mutant of MUTANTS.filter((candidate) => candidate.proxyCatches !== false)) {
  it(`counts the drift of the mutant "${mutant.name}" under ${mutant.breaks} while verify's traffic passes through`, async () => {
    const drifting = await upstream(mutant.create())
    const clock = drifting.sandbox.clock
    const proxied = await proxyInProcess(drifting.url, clock.now)
    try {
      // verify only makes traffic here: the proxy's own counters are what is asserted.
      await runVerify({
        baseUrl: proxied.url,
        key: UPSTREAM_KEY,
        writes: true,
        spendQuota: true,
        maxQuotaRequests: 1000,
        announce: () => {},
        now: clock.now,
        sleep: async (ms) => clock.advance(ms),
      })
      // A promise of the spec broken is a violation; a decision taken otherwise, a difference (D39).
      const decided = VERIFY_PROMISES.find((promise) => promise.id === mutant.breaks)!.source.kind === 'decision'
      const { byPromise } = proxied.stats.snapshot()[decided ? 'differences' : 'violations']
      watched.push({ name: mutant.name, counted: byPromise[mutant.breaks] !== undefined })
      expect(Object.keys(byPromise)).toContain(mutant.breaks)
    } finally {
      await proxied.close()
    }
  })
}

it("counts every mutant one answer can show (the rest need verify's request sequences)", () => {
  const counted = watched.filter((entry) => entry.counted).length
  console.log(
    `Proxy mutation score: ${counted}/${watched.length} of the mutants one answer can show; ${MUTANTS.length - watched.length} more need verify`,
  )
  expect(watched.length).toBeGreaterThanOrEqual(15)
  expect(counted).toBe(watched.length)
})

it('refuses a request target that is no URL with a 400 Error body, and keeps serving', async () => {
  const cli = await proxy((await upstream()).url)
  const refused = await rawExchange(cli.url, 'GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
  // No contract check: the contract's paths cannot hold a target that is no URL.
  expect(refused?.status).toBe(400)
  expect(refused?.headers.get('x-sandbox-source')).toBe('sandbox')
  expect(JSON.parse(refused!.body.toString())).toEqual({
    code: 'invalid_request',
    message: 'The request target is not a valid URL',
    status: 400,
  })
  const next = await call(cli, '/pets?limit=1')
  contract.check('GET', `${cli.url}/pets?limit=1`, next.clone())
  expect(next.status).toBe(200)
})

it('refuses bad options with one line and no stack trace', async () => {
  const runs = [
    await runCli(['proxy']),
    await runCli(['proxy', '--upstream', 'staging.example/v1']),
    await runCli(['proxy', '--upstream', 'http://127.0.0.1:9/v1', '--upstream-timeout', '0']),
  ]
  expect(runs.map((run) => run.code)).toEqual([1, 1, 1])
  expect(runs[0]!.stderr).toMatch(/^error: required option '--upstream <url>' not specified/)
  expect(runs[1]!.stderr).toMatch(
    /^error: option '--upstream <url>' argument 'staging.example\/v1' is invalid\. expected an http\(s\) URL/,
  )
  expect(runs[2]!.stderr).toMatch(
    /^error: option '--upstream-timeout <ms>' argument '0' is invalid\. expected a whole number from 1 to 600000\./,
  )
  for (const run of runs) expect(run.stderr).not.toMatch(/\n\s+at /)
})

/** The proxy's own 502 and 504 cannot know the upstream's quota: the rate-limit headers are all they lack. */
async function expectOnlyRateLimitHeadersMissing(url: string, response: Response): Promise<void> {
  const violations = await contractViolations('GET', url, response)
  expect(violations).toHaveLength(6)
  for (const violation of violations) expect(violation).toMatch(/x-ratelimit-(limit|remaining|reset)/)
}

async function keysFile(): Promise<string> {
  const { mkdtemp, writeFile } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const file = join(await mkdtemp(join(tmpdir(), 'proxy-keys-')), 'keys.json')
  await writeFile(file, JSON.stringify({ keys: [{ key: UPSTREAM_KEY, plan: 'pro' }] }))
  return file
}
