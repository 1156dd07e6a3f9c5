import { readFileSync } from 'node:fs'
import { get } from 'node:http'
import { connect } from 'node:net'
import { brotliCompressSync, constants } from 'node:zlib'
import { afterEach, expect, it } from 'vitest'
import { inspectMemory, inspectorAddress } from '../support/inspect-memory.js'
import { listenOnLoopback } from '../support/raw-http.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

// What the proxy holds of request bodies and encoded answers, read in the CLI process itself after
// full GCs through its inspector, and its peak resident memory: bounds on memory, never on time
// (D38). Figures in BENCHMARKS.md ("The proxy's memory").
const MiB = 1024 * 1024
const ADMIN_TOKEN = 'proxy-memory-admin-token'
const KEY = 'a-key-of-the-upstream-0001'
const RATE_LIMIT = ['X-RateLimit-Limit', '60', 'X-RateLimit-Remaining', '59', 'X-RateLimit-Reset', '4102444800']

const running: Array<{ close(): Promise<void> } | CliProcess> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop('SIGKILL') : item.close())))
})

/** An upstream that reads every body to its end without keeping it, counts the bytes, and answers `answer`. */
async function upstream(answer: { status: number; headers: string[]; body: Buffer }) {
  let received = 0
  const server = await listenOnLoopback((incoming, outgoing) => {
    incoming.on('data', (chunk: Buffer) => (received += chunk.length))
    incoming.on('end', () => {
      outgoing.writeHead(answer.status, answer.headers)
      outgoing.end(answer.body)
    })
  })
  running.push(server)
  return { url: `${server.origin}/v1`, received: () => received }
}

async function proxy(upstreamUrl: string, args: string[] = []) {
  const cli = await startCli(
    ['--upstream', upstreamUrl, '--log', 'off', '--admin-token', ADMIN_TOKEN, ...args],
    { NODE_OPTIONS: '--inspect=127.0.0.1:0' },
    'proxy',
  )
  running.push(cli)
  await expect.poll(() => inspectorAddress(cli.output())).toBeDefined()
  const inspector = await inspectMemory(inspectorAddress(cli.output())!)
  running.push({ close: async () => inspector.close() })
  /** The most the process has held resident since it started (VmHWM). */
  const peakRss = () =>
    Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${cli.child.pid}/status`, 'utf8'))![1]) * 1024
  return { ...cli, memory: inspector.afterGc, peakRss }
}

it('keeps no request body whole: 10 creates of 15 MiB through the proxy leave it holding what it held before', async () => {
  const created = await upstream({
    status: 201,
    headers: ['Content-Type', 'application/json', ...RATE_LIMIT],
    body: Buffer.from('{"id":51,"name":"Rex","categoryId":1}'),
  })
  const cli = await proxy(created.url)
  const before = await cli.memory()
  // Valid JSON: a pet and 15 MiB of white space, the size the red team sent.
  const body = JSON.stringify({ name: 'Rex', categoryId: 1 }).padEnd(15 * MiB, ' ')
  for (let i = 0; i < 10; i++) {
    const response = await fetch(`${cli.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    })
    expect(response.status).toBe(201)
    await response.arrayBuffer()
  }
  expect(created.received()).toBe(10 * 15 * MiB)
  const after = await cli.memory()
  // 150 MiB or more if each kept entry held its body; its entry keeps the size alone (over 64 KiB).
  expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(8 * MiB)
  expect(after.external - before.external).toBeLessThan(8 * MiB)
  expect(after.heapUsed - before.heapUsed).toBeLessThan(8 * MiB)
  const listed = await fetch(`${cli.url.replace(/\/v1$/, '')}/__sandbox/requests?limit=1`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  expect(((await listed.json()) as { requests: Array<{ status: number }> }).requests).toMatchObject([{ status: 201 }])
}, 120_000)

it('decodes a decompression bomb no further than its cap: 405 bytes of brotli that decode to 256 MiB pass through without growing the proxy', async () => {
  const bomb = brotliCompressSync(Buffer.alloc(256 * MiB, 32), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
  expect(bomb.length).toBeLessThan(1024)
  const bombing = await upstream({
    status: 200,
    headers: ['Content-Type', 'application/json', 'Content-Encoding', 'br', ...RATE_LIMIT],
    body: bomb,
  })
  const cli = await proxy(bombing.url, ['--log', 'json'])
  const peakBefore = cli.peakRss()
  for (let i = 0; i < 3; i++) {
    const response = await rawGet(`${cli.url}/pets`, { authorization: `Bearer ${KEY}`, 'accept-encoding': 'br' })
    expect(response.status).toBe(200)
    // The client gets the upstream's bytes as they came.
    expect(response.body.equals(bomb)).toBe(true)
  }
  await expect
    .poll(
      () =>
        cli
          .output()
          .split('\n')
          .filter((line) => line.includes('decodes to more than')).length,
    )
    .toBe(3)
  // Before the cap, each answer grew the process by its decoded size (and a string of it).
  expect(cli.peakRss() - peakBefore).toBeLessThan(96 * MiB)
  expect((await fetch(`${cli.url.replace(/\/v1$/, '')}/healthz`)).status).toBe(200)
}, 120_000)

it('bounds the request bodies it holds across slow clients: 100 creates of 15 MiB that stall after 2 MiB hold its 64 MiB, not what they sent', async () => {
  const created = await upstream({
    status: 201,
    headers: ['Content-Type', 'application/json', ...RATE_LIMIT],
    body: Buffer.from('{"id":51,"name":"Rex","categoryId":1}'),
  })
  // With fallback, a create keeps up to D9's 1 MiB for the sandbox: the most it can hold per body.
  // The upstream waits for the rest of each body as long as the test: no timeout ends them.
  const cli = await proxy(created.url, ['--fallback', '--upstream-timeout', '120000'])
  const before = await cli.memory()
  const { host, port } = new URL(cli.url)
  const head = `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${15 * MiB}\r\n\r\n`
  const sockets = Array.from({ length: 100 }, () => {
    const socket = connect(Number(port), '127.0.0.1')
    socket.on('error', () => {})
    socket.write(head)
    socket.write(Buffer.alloc(2 * MiB, 32))
    return socket
  })
  running.push({
    close: async () => {
      for (const socket of sockets) socket.destroy()
    },
  })
  // The requests whose share fits stream on to the upstream; the rest wait, unread.
  await expect.poll(() => created.received(), { timeout: 60_000 }).toBeGreaterThanOrEqual(60 * 2 * MiB)
  const during = await cli.memory()
  // 200 MiB and more if each body were held as it came; a body's share is its first 1 MiB.
  expect(during.arrayBuffers - before.arrayBuffers).toBeLessThan(80 * MiB)
  expect(during.heapUsed - before.heapUsed).toBeLessThan(16 * MiB)
  expect((await fetch(`${cli.url.replace(/\/v1$/, '')}/healthz`)).status).toBe(200)
}, 120_000)

/** GET through node:http, which leaves an encoded body as it came. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}
