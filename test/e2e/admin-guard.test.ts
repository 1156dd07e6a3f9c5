import { get as httpGet } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminContractViolations, createAdminContractChecker } from '../support/admin-contract.js'
import { startUpstream, type Upstream } from '../support/mutants/start-upstream.js'
import { pagesContractViolations } from '../support/pages-contract.js'
import { rawExchange, rawRequest, toFetchResponse } from '../support/raw-http.js'
import { type CliProcess, startCli } from '../support/start-cli.js'

const adminContract = createAdminContractChecker()
const TOKEN = 'admin-token-right-one'
const WRONG = 'admin-token-wrong-guess'

/** GET /__sandbox/state from a loopback address of its own, checked against the admin contract. */
async function state(url: string, token: string, localAddress: string) {
  const answer = await rawExchange(
    url,
    rawRequest({ target: '/__sandbox/state', headers: [['Authorization', `Bearer ${token}`]] }),
    { localAddress },
  )
  expect(answer).toBeDefined()
  const origin = new URL(url).origin
  expect(await adminContractViolations('GET', `${origin}/__sandbox/state`, toFetchResponse(answer!))).toEqual([])
  return answer!
}

it('limits wrong admin tokens per client address to 10 a minute, then 429 with Retry-After whatever the token, never slowing the right token', async () => {
  const cli = await startCli(['--log', 'pretty', '--pets', '1', '--admin-token', TOKEN])
  try {
    const attacker = '127.0.0.21'
    for (let i = 0; i < 10; i++) expect((await state(cli.url, `${WRONG}${i}`, attacker)).status).toBe(401)
    const limited = await state(cli.url, WRONG, attacker)
    expect(limited.status).toBe(429)
    expect(JSON.parse(limited.body.toString())).toMatchObject({ code: 'rate_limited', status: 429 })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    // No oracle: the locked-out address is refused even the right token, so a 200 cannot tell it
    // that its last guess was right.
    expect((await state(cli.url, TOKEN, attacker)).status).toBe(429)
    // Another address has its own count.
    expect((await state(cli.url, WRONG, '127.0.0.22')).status).toBe(401)
    // The right token never counts: a hundred calls later, still 200.
    for (let i = 0; i < 100; i++) expect((await state(cli.url, TOKEN, '127.0.0.23')).status).toBe(200)

    // The request log shows each refusal with a fingerprint of what was presented, never the token.
    await new Promise((resolve) => setTimeout(resolve, 100))
    const lines = cli
      .output()
      .split('\n')
      .filter((line) => line.startsWith('GET /__sandbox/state'))
    expect(lines.filter((line) => / 401 .* key=refused:…#[0-9a-f]{4}$/.test(line))).toHaveLength(11)
    expect(lines.filter((line) => / 429 .* key=refused:…#[0-9a-f]{4}$/.test(line))).toHaveLength(2)
    expect(lines.filter((line) => / 200 .* key=admin$/.test(line))).toHaveLength(100)
    expect(cli.output()).not.toContain(WRONG)
    expect(cli.output()).not.toContain(TOKEN)
  } finally {
    await cli.stop()
  }
})

it('lets the window pass: after the sandbox clock moves on a minute, wrong tokens get 401 again', async () => {
  const cli = await startCli(['--log', 'off', '--pets', '1', '--admin-token', TOKEN])
  try {
    for (let i = 0; i < 11; i++) await state(cli.url, WRONG, '127.0.0.31')
    expect((await state(cli.url, WRONG, '127.0.0.31')).status).toBe(429)
    const origin = new URL(cli.url).origin
    const moved = await fetch(`${origin}/__sandbox/clock`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"advanceMs":61000}',
    })
    adminContract.check('POST', `${origin}/__sandbox/clock`, moved)
    expect(moved.status).toBe(200)
    expect((await state(cli.url, WRONG, '127.0.0.31')).status).toBe(401)
  } finally {
    await cli.stop()
  }
})

/**
 * GET /__sandbox/events from a loopback address of its own: the head of the answer (and the first
 * chunk of an open stream, which is then closed), held to fixtures/pages-openapi.yaml.
 */
function events(
  origin: string,
  token: string,
  localAddress: string,
): Promise<{ status: number; headers: Headers; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(
      `${origin}/__sandbox/events`,
      { localAddress, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(response.headers))
          if (typeof value === 'string') headers.set(name, value)
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          body += chunk
          // An open stream never ends: its first comment is enough.
          if (response.statusCode === 200) request.destroy()
        })
        const done = async () => {
          const answer = { status: response.statusCode ?? 0, headers, body }
          const violations = await pagesContractViolations(
            'GET',
            `${origin}/__sandbox/events`,
            new Response(answer.status === 200 ? '' : body, answer),
          )
          if (violations.length > 0) reject(new Error(violations.join('\n')))
          else resolve(answer)
        }
        response.on('end', done)
        response.on('close', done)
      },
    )
    request.on('error', () => undefined)
  })
}

/** The request list as the right token reads it, from an address of its own, held to the admin contract. */
async function listed(origin: string): Promise<Array<{ method: string; path: string; status: number; key: string }>> {
  const response = await fetch(`${origin}/__sandbox/requests`, { headers: { authorization: `Bearer ${TOKEN}` } })
  adminContract.check('GET', `${origin}/__sandbox/requests`, response.clone())
  expect(response.status).toBe(200)
  return ((await response.json()) as { requests: Array<{ method: string; path: string; status: number; key: string }> })
    .requests
}

for (const command of ['start', 'proxy'] as const) {
  describe(`one admin gate for every admin path under ${command}`, () => {
    let cli: CliProcess
    let origin: string
    let upstream: Upstream | undefined
    beforeAll(async () => {
      if (command === 'proxy') upstream = await startUpstream()
      const args = ['--log', 'pretty', '--pets', '1', '--admin-token', TOKEN]
      cli =
        command === 'start' ? await startCli(args) : await startCli(['--upstream', upstream!.url, ...args], {}, 'proxy')
      origin = new URL(cli.url).origin
    })
    afterAll(async () => {
      await cli.stop()
      await upstream?.close()
    })

    it('limits wrong tokens on the event stream, lists and prints each refusal, then refuses even the right token from that address only', async () => {
      const attacker = '127.0.0.41'
      // Wrong tokens count alike on every admin path: five on the admin API, five on the stream.
      for (let i = 0; i < 5; i++) expect((await state(cli.url, `${WRONG}${i}`, attacker)).status).toBe(401)
      for (let i = 0; i < 5; i++) {
        const refused = await events(origin, `${WRONG}${i}`, attacker)
        expect(refused.status).toBe(401)
        expect(JSON.parse(refused.body)).toMatchObject({ code: 'unauthorized', status: 401 })
      }
      const limited = await events(origin, WRONG, attacker)
      expect(limited.status).toBe(429)
      expect(JSON.parse(limited.body)).toMatchObject({ code: 'rate_limited', status: 429 })
      const retryAfter = Number(limited.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)

      // The right token from the locked-out address: refused on the stream and on the admin API.
      expect((await events(origin, TOKEN, attacker)).status).toBe(429)
      expect((await state(cli.url, TOKEN, attacker)).status).toBe(429)
      // From another address the right token is served, the stream opens.
      const served = await events(origin, TOKEN, '127.0.0.42')
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      expect(served.body).toContain(': petstore-sandbox request log')
      expect((await state(cli.url, TOKEN, '127.0.0.43')).status).toBe(200)

      // Every refusal is in the request list, fingerprinted, never the token.
      const refusals = (await listed(origin)).filter((entry) => entry.path.startsWith('/__sandbox/'))
      expect(refusals.map((entry) => `${entry.path} ${entry.status}`)).toEqual([
        ...Array(5).fill('/__sandbox/state 401'),
        ...Array(5).fill('/__sandbox/events 401'),
        '/__sandbox/events 429',
        '/__sandbox/events 429',
        '/__sandbox/state 429',
      ])
      for (const entry of refusals) expect(entry.key).toMatch(/^refused:…#[0-9a-f]{4}$/)

      // And printed on stdout, one line each.
      await new Promise((resolve) => setTimeout(resolve, 100))
      const lines = cli.output().split('\n')
      expect(
        lines.filter((line) => /^GET \/__sandbox\/events 401 .* key=refused:…#[0-9a-f]{4}/.test(line)),
      ).toHaveLength(5)
      expect(
        lines.filter((line) => /^GET \/__sandbox\/events 429 .* key=refused:…#[0-9a-f]{4}/.test(line)),
      ).toHaveLength(2)
      expect(cli.output()).not.toContain(WRONG)
      expect(cli.output()).not.toContain(TOKEN)
    })
  })
}
