import { readFileSync } from 'node:fs'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { adminContractViolations } from '../support/admin-contract.js'
import { contractViolations } from '../support/contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startUpstream, UPSTREAM_KEY, type Upstream } from '../support/mutants/start-upstream.js'
import { listenOnLoopback, rawExchange, type RawResponse, toFetchResponse } from '../support/raw-http.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

// `start` and `proxy` listen through the same server (src/node/server/start-server.ts): what it
// refuses, it refuses alike for both. The proxy's forwarding limits and its fallback are its own.

const ADMIN_TOKEN = 'one-server-admin-token'
const contract = createContractChecker()
const admin = createContractChecker(adminContractViolations, 'admin responses that break fixtures/admin-openapi.yaml')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const running: Array<{ close(): Promise<void> } | CliProcess> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop() : item.close())))
})

async function upstream(...args: Parameters<typeof startUpstream>): Promise<Upstream> {
  const started = await startUpstream(...args)
  running.push(started)
  return started
}

async function cli(command: 'start' | 'proxy', args: string[] = []): Promise<CliProcess> {
  const extra = command === 'proxy' && !args.includes('--upstream') ? ['--upstream', (await upstream()).url] : []
  const started = await startCli(['--log', 'json', '--admin-token', ADMIN_TOKEN, ...extra, ...args], {}, command)
  running.push(started)
  return started
}

/**
 * The server's refusal as the contract holds it: under `start` whole, with the address's quota;
 * under `proxy`, which cannot know the upstream's quota, all but the X-RateLimit-* headers, and
 * marked as the proxy's own.
 */
async function expectRefusal(
  command: 'start' | 'proxy',
  url: string,
  method: string,
  answer: RawResponse | undefined,
  status: number,
  message: RegExp,
) {
  expect(answer, 'an HTTP answer before the connection closed').toBeDefined()
  expect(answer!.status).toBe(status)
  const body = JSON.parse(answer!.body.toString()) as { code: string; message: string; status: number }
  expect(body).toMatchObject({ status, message: expect.stringMatching(message) })
  const violations = await contractViolations(method, url, toFetchResponse(answer!))
  if (command === 'start') {
    expect(violations).toEqual([])
    return
  }
  expect(answer!.headers.get('x-sandbox-source')).toBe('sandbox')
  expectOnlyRateLimitHeadersMissing(violations)
}

/** The proxy's own answers cannot know the upstream's quota: the X-RateLimit-* headers are all they lack. */
function expectOnlyRateLimitHeadersMissing(violations: string[]) {
  expect(violations.length).toBeGreaterThan(0)
  for (const violation of violations) expect(violation).toMatch(/x-ratelimit-(limit|remaining|reset)/)
}

/** A request that works, after a refusal: the server kept serving. */
async function expectServing(served: CliProcess) {
  const response = await fetch(`${served.url}/pets?limit=1`, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } })
  contract.check('GET', response.url, response.clone())
  expect([200, 401], await response.clone().text()).toContain(response.status)
}

describe.each(['start', 'proxy'] as const)('%s, on the one server', (command) => {
  it('answers a request line that is not HTTP with a 400 Error body, not node’s bare 400', async () => {
    const served = await cli(command)
    const origin = new URL(served.url).origin
    const answer = await rawExchange(served.url, 'GARBAGE\r\n\r\n')
    await expectRefusal(command, `${origin}/`, 'GET', answer, 400, /^The request is not valid HTTP\/1\.1/)
    await expectServing(served)
  })

  it('refuses CONNECT with a 400 Error body instead of leaving the connection unanswered', async () => {
    const served = await cli(command)
    const origin = new URL(served.url).origin
    const answer = await rawExchange(served.url, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n')
    await expectRefusal(command, `${origin}/`, 'CONNECT', answer, 400, /^CONNECT requests are not supported/)
    await expectServing(served)
  })

  it('refuses TRACE with a 400 Error body, and the proxy forwards none', async () => {
    const backend = await upstream()
    const served = await cli(command, command === 'proxy' ? ['--upstream', backend.url] : [])
    const answer = await rawExchange(
      served.url,
      `TRACE /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${UPSTREAM_KEY}\r\nConnection: close\r\n\r\n`,
    )
    await expectRefusal(command, `${served.url}/pets`, 'TRACE', answer, 400, /^TRACE requests are not supported/)
    expect(backend.received).toEqual([])
    await expectServing(served)
  })

  it('refuses an HTTP/1.1 request without Host with a 400 Error body', async () => {
    const served = await cli(command)
    const answer = await rawExchange(served.url, 'GET /v1/pets HTTP/1.1\r\nConnection: close\r\n\r\n')
    await expectRefusal(command, `${served.url}/pets`, 'GET', answer, 400, /exactly one Host header/)
  })

  it('ends every answer through the one tail: what no handler claims, a page refused and the server’s own refusal are each an Error body, listed once', async () => {
    const served = await cli(command)
    const origin = served.url.replace(/\/v1$/, '')
    const unclaimed = await fetch(`${origin}/nothing-here?x=1`)
    expect(unclaimed.status).toBe(404)
    expect(await unclaimed.json()).toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/not part of the API/),
      status: 404,
    })
    const page = await fetch(`${origin}/openapi.json`, { method: 'DELETE' })
    expect(page.status).toBe(405)
    expect(page.headers.get('allow')).toBe('GET, HEAD')
    expect(await page.json()).toMatchObject({ code: 'method_not_allowed', status: 405 })
    const trace = await rawExchange(
      served.url,
      'TRACE /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    )
    await expectRefusal(command, `${served.url}/pets`, 'TRACE', trace, 400, /^TRACE requests are not supported/)

    const target = `${origin}/__sandbox/requests`
    const response = await fetch(target, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    admin.check('GET', target, response.clone())
    const { requests } = (await response.json()) as {
      requests: Array<{ method: string; path: string; status: number }>
    }
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'GET /nothing-here?x=1 404',
      'DELETE /openapi.json 405',
      'TRACE /v1/pets 400',
    ])
  })

  it('cuts a client that sends its head too slowly with a 408 Error body', async () => {
    const served = await cli(command, ['--headers-timeout', '1000'])
    const origin = new URL(served.url).origin
    // Only a request line, then nothing: the head never completes.
    const answer = await rawExchange(served.url, 'GET /v1/pets HTTP/1.1\r\n', { timeoutMs: 10_000 })
    await expectRefusal(command, `${origin}/`, 'GET', answer, 408, /not received in time/)
  })

  it('cuts a client that sends its body too slowly, and nothing is stored or forwarded', async () => {
    const backend = await upstream()
    const served = await cli(command, [
      '--headers-timeout',
      '1000',
      '--request-timeout',
      '1500',
      ...(command === 'proxy' ? ['--upstream', backend.url] : []),
    ])
    const { hostname, port } = new URL(served.url)
    const socket = connect(Number(port), hostname)
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.on('error', () => {})
    let open = true
    void closed.then(() => (open = false))
    const body = JSON.stringify({ name: 'Slow', categoryId: 1, pad: 'p'.repeat(600) })
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${UPSTREAM_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    )
    let sent = 0
    while (open && sent < body.length) {
      socket.write(body[sent]!)
      sent++
      await sleep(20)
    }
    await closed
    expect(sent).toBeLessThan(body.length)
    expect(backend.received).toEqual([])
    if (command === 'start') {
      const listed = await fetch(`${served.url}/pets?limit=100`, {
        headers: { authorization: 'Bearer sandbox-free-key' },
      })
      contract.check('GET', listed.url, listed.clone())
      expect(await listed.json()).toHaveLength(50)
    }
  }, 30_000)
})

/**
 * Sends a request whose body goes in 32 parts, 20 ms apart, and reads nothing until all is sent,
 * as a busy client does; returns what it then reads. A server that closed with the body still
 * arriving would have reset the connection, and the reset discards the answer waiting in the
 * client's buffer.
 */
function sendInPartsReadLate(url: string, head: string, body: Buffer): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) })
    const chunks: Buffer[] = []
    socket.pause()
    socket.write(head)
    const part = Math.ceil(body.length / 32)
    let sent = 0
    const sendPart = () => {
      socket.write(body.subarray(sent, sent + part), () => {
        sent += part
        if (sent < body.length) setTimeout(sendPart, 20)
        else socket.resume()
      })
    }
    sendPart()
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
  })
}

function expectAnswer(text: string, status: number) {
  expect(text, `the ${status} answer`).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
  expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).status).toBe(status)
}

it('answers a body it refuses unread to a client that reads late, and closes only once the body is in, so no reset destroys the answer', async () => {
  const served = await cli('start')
  const body = Buffer.alloc(2 * 1024 * 1024, 'p')
  for (const [authorization, status] of [
    ['', 401],
    ['Authorization: Bearer sandbox-enterprise-key\r\n', 413],
  ] as const) {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`
    expectAnswer(await sendInPartsReadLate(served.url, head, body), status)
  }
  await expectServing(served)
})

it('names the quota of the address in a refusal under start, spending none of it', async () => {
  const served = await cli('start')
  const origin = new URL(served.url).origin
  const keyless = () =>
    rawExchange(served.url, 'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', {
      localAddress: '127.0.0.77',
    })
  const first = await keyless()
  expect(first?.status).toBe(401)
  expect(await contractViolations('GET', `${served.url}/pets`, toFetchResponse(first!))).toEqual([])
  const left = Number(first!.headers.get('x-ratelimit-remaining'))
  const refused = await rawExchange(served.url, 'GARBAGE\r\n\r\n', { localAddress: '127.0.0.77' })
  await expectRefusal('start', `${origin}/`, 'GET', refused, 400, /not valid HTTP/)
  expect(Number(refused!.headers.get('x-ratelimit-remaining'))).toBe(left)
  const elsewhere = await rawExchange(served.url, 'GARBAGE\r\n\r\n', { localAddress: '127.0.0.78' })
  expect(Number(elsewhere!.headers.get('x-ratelimit-remaining'))).toBe(
    Number(elsewhere!.headers.get('x-ratelimit-limit')),
  )
  const second = await keyless()
  expect(await contractViolations('GET', `${served.url}/pets`, toFetchResponse(second!))).toEqual([])
  expect(Number(second!.headers.get('x-ratelimit-remaining'))).toBe(left - 1)
})

/** An upstream of fixed behaviour, on raw node:http, that records what it was sent. */
async function rawUpstream(
  answer: (request: { method: string; url: string; headers: IncomingHttpHeaders }, response: ServerResponse) => void,
) {
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = []
  const server = await listenOnLoopback((incoming, outgoing) => {
    incoming.resume()
    incoming.on('end', () => {
      seen.push({ method: incoming.method!, url: incoming.url!, headers: incoming.headers })
      answer({ method: incoming.method!, url: incoming.url!, headers: incoming.headers }, outgoing)
    })
  })
  running.push(server)
  return { url: `${server.origin}/v1`, seen }
}

/** Peak resident memory of a process, in MB (Linux /proc). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)![1]) / 1024
}

const PETS = JSON.stringify([{ id: 1, name: 'Ace', categoryId: 2, status: 'sold' }])
const RATE_LIMIT = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '4102444800' }

describe('proxy, forwarding', () => {
  it.each([
    ['announced by Content-Length', true],
    ['sent chunked, with no length', false],
  ])(
    'answers an 80 MB upstream answer %s with 502 upstream_too_large, reading no more than 16 MiB of it',
    async (_case, announced) => {
      const size = 80 * 1024 * 1024
      let sent = 0
      const backend = await rawUpstream(({ url }, response) => {
        // The listing of one pet, which shows that the proxy still serves, is small.
        if (url.endsWith('limit=1'))
          return void response
            .writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...RATE_LIMIT })
            .end(PETS)
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          ...RATE_LIMIT,
          ...(announced ? { 'content-length': String(size) } : {}),
        })
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        const pump = () => {
          while (sent < size && !response.destroyed) {
            sent += chunk.length
            if (!response.write(chunk)) return void response.once('drain', pump)
          }
          response.end()
        }
        pump()
      })
      const proxy = await cli('proxy', ['--upstream', backend.url])
      const before = peakRssMb(proxy.child.pid!)
      const response = await fetch(`${proxy.url}/pets`, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } })
      expect(response.status).toBe(502)
      expect(response.headers.get('x-sandbox-source')).toBe('sandbox')
      expect(await response.clone().json()).toMatchObject({ code: 'upstream_too_large', status: 502 })
      expectOnlyRateLimitHeadersMissing(await contractViolations('GET', response.url, response))
      const after = peakRssMb(proxy.child.pid!)
      console.log(`proxy peak RSS, 80 MB answer ${_case}: ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after`)
      expect(after).toBeLessThan(250)
      expect(sent).toBeLessThan(size)
      await expectServing(proxy)
    },
    60_000,
  )

  it('answers a body over 16 MiB with 413 to a client that reads late, closing only once the body is in', async () => {
    const served = await cli('proxy')
    const body = Buffer.alloc(17 * 1024 * 1024, 'p')
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`
    expectAnswer(await sendInPartsReadLate(served.url, head, body), 413)
    await expectServing(served)
  })

  it('refuses a chunked request body over 16 MiB with 413, forwarding none of it', async () => {
    const backend = await upstream()
    const proxy = await cli('proxy', ['--upstream', backend.url])
    const chunk = Buffer.alloc(1024 * 1024, 0x20)
    const framed = Buffer.concat(
      Array.from({ length: 17 }, () =>
        Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
      ),
    )
    const answer = await rawExchange(
      proxy.url,
      Buffer.concat([
        Buffer.from(
          `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${UPSTREAM_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        ),
        framed,
        Buffer.from('0\r\n\r\n'),
      ]),
      { timeoutMs: 20_000 },
    )
    expect(answer?.status).toBe(413)
    expect(JSON.parse(answer!.body.toString())).toMatchObject({ code: 'payload_too_large', status: 413 })
    expectOnlyRateLimitHeadersMissing(await contractViolations('POST', `${proxy.url}/pets`, toFetchResponse(answer!)))
    expect(backend.received).toEqual([])
  }, 30_000)

  it('drops the headers the Connection header names, both ways', async () => {
    const backend = await rawUpstream((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        ...RATE_LIMIT,
        connection: 'X-Upstream-Hop',
        'x-upstream-hop': 'for-the-proxy',
        'x-kept': 'yes',
      })
      response.end(PETS)
    })
    const proxy = await cli('proxy', ['--upstream', backend.url])
    const answer = await rawExchange(
      proxy.url,
      `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${UPSTREAM_KEY}\r\nConnection: close, X-Client-Hop\r\nX-Client-Hop: for-the-proxy\r\nX-Client-Kept: yes\r\n\r\n`,
    )
    expect(answer?.status).toBe(200)
    const response = toFetchResponse(answer!)
    contract.check('GET', `${proxy.url}/pets`, response)
    expect(response.headers.get('x-upstream-hop')).toBeNull()
    expect(response.headers.get('x-kept')).toBe('yes')
    expect(backend.seen[0]!.headers['x-client-hop']).toBeUndefined()
    expect(backend.seen[0]!.headers['x-client-kept']).toBe('yes')
  })

  it('answers a create the upstream received but answered late with 504 upstream_outcome_unknown under --fallback: one pet, upstream', async () => {
    const late = await upstream(async (request, answer) => {
      if (request.method !== 'POST') return answer(request)
      const stored = await answer(request)
      await sleep(1_000)
      return stored
    })
    const proxy = await cli('proxy', ['--upstream', late.url, '--fallback', '--upstream-timeout', '300'])
    const before = late.sandbox.pets.all().length
    const body = JSON.stringify({ name: 'Biscuit', categoryId: 2 })
    const response = await fetch(`${proxy.url}/pets`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${UPSTREAM_KEY}`, 'content-type': 'application/json' },
    })
    expect(response.status).toBe(504)
    expect(response.headers.get('x-sandbox-source')).toBe('sandbox')
    const refused = (await response.clone().json()) as { code: string; message: string }
    expect(refused.code).toBe('upstream_outcome_unknown')
    expect(refused.message).toMatch(/may have stored it/)
    expectOnlyRateLimitHeadersMissing(await contractViolations('POST', response.url, response))
    // The upstream's late answer arrives meanwhile; the create counts once, and only there.
    await sleep(1_200)
    expect(late.received.filter((request) => request.method === 'POST')).toHaveLength(1)
    expect(late.sandbox.pets.all().length).toBe(before + 1)
    const state = await fetch(`${new URL(proxy.url).origin}/__sandbox/proxy`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    admin.check('GET', state.url, state.clone())
    expect(((await state.json()) as { fallbacks: unknown; answers: unknown }).fallbacks).toEqual({
      unreachable: 0,
      timeout: 0,
      missing: 0,
    })

    // A read the upstream is late with still falls back.
    const slowRead = await upstream(async (request, answer) => {
      await sleep(1_000)
      return answer(request)
    })
    const reading = await cli('proxy', ['--upstream', slowRead.url, '--fallback', '--upstream-timeout', '300'])
    const read = await fetch(`${reading.url}/pets?limit=1`, { headers: { authorization: 'Bearer sandbox-free-key' } })
    contract.check('GET', read.url, read.clone())
    expect(read.status).toBe(200)
    expect(read.headers.get('x-sandbox-source')).toBe('sandbox')
  }, 30_000)

  it('answers a create the upstream cut off mid-answer with 504 upstream_outcome_unknown, with or without --fallback', async () => {
    let creates = 0
    const backend = await rawUpstream(({ method }, response) => {
      if (method === 'POST') creates++
      response.writeHead(201, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': '200',
        ...RATE_LIMIT,
      })
      response.write('{"id":51,')
      setTimeout(() => response.destroy(), 50)
    })
    for (const args of [['--fallback'], []]) {
      const proxy = await cli('proxy', ['--upstream', backend.url, ...args])
      const response = await fetch(`${proxy.url}/pets`, {
        method: 'POST',
        body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
        headers: { authorization: 'Bearer sandbox-free-key', 'content-type': 'application/json' },
      })
      expect(response.status).toBe(504)
      expect(await response.clone().json()).toMatchObject({ code: 'upstream_outcome_unknown', status: 504 })
      expectOnlyRateLimitHeadersMissing(await contractViolations('POST', response.url, response))
    }
    expect(creates).toBe(2)
  })

  it('lets the sandbox answer a create under --fallback when the upstream refuses the connection: it never had it', async () => {
    const gone = await startUpstream()
    await gone.close()
    const proxy = await cli('proxy', ['--upstream', gone.url, '--fallback'])
    const response = await fetch(`${proxy.url}/pets`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
      headers: { authorization: 'Bearer sandbox-free-key', 'content-type': 'application/json' },
    })
    contract.check('POST', response.url, response.clone())
    expect(response.status).toBe(201)
    expect(response.headers.get('x-sandbox-source')).toBe('sandbox')
  })
})
