import { afterAll, beforeAll, expect, it } from 'vitest'
import { contractViolations } from '../support/contract.js'
import { parseResponse, toFetchResponse } from '../support/raw-http.js'
import { openSocket, untilClosed } from '../support/raw-socket.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

let cli: CliProcess
const KEY = 'Bearer sandbox-enterprise-key'

beforeAll(async () => {
  // Short limits, so slow clients are cut off within a test: the defaults are 10 s, 30 s and 5 s.
  cli = await startCli([
    '--log',
    'off',
    '--pets',
    '3',
    '--headers-timeout',
    '1000',
    '--request-timeout',
    '2000',
    '--keep-alive-timeout',
    '500',
  ])
})
afterAll(async () => {
  await cli.stop()
})

async function petCount(): Promise<number> {
  const response = await fetch(`${cli.url}/pets?limit=100`, { headers: { authorization: KEY } })
  expect(response.status).toBe(200)
  return ((await response.json()) as unknown[]).length
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

it('cuts off a client that sends its headers byte by byte, with a 408 Error body', async () => {
  const socket = await openSocket(cli.url)
  const closed = untilClosed(socket)
  let open_ = true
  void closed.then(() => (open_ = false))
  socket.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n')
  // 600 bytes at one per 50 ms would take 30 s; the server must not wait for them.
  const header = `X-Slow: ${'s'.repeat(600)}\r\n\r\n`
  let sent = 0
  while (open_ && sent < header.length) {
    socket.write(header[sent]!)
    sent++
    await sleep(50)
  }
  const answer = parseResponse(await closed, false, true)
  expect(sent).toBeLessThan(header.length)
  expect(answer?.status).toBe(408)
  expect(await contractViolations('GET', `${new URL(cli.url).origin}/`, toFetchResponse(answer!))).toEqual([])
  expect(await petCount()).toBe(3)
})

it('cuts off a client that sends its body byte by byte, and stores nothing', async () => {
  const socket = await openSocket(cli.url)
  const closed = untilClosed(socket)
  let open_ = true
  void closed.then(() => (open_ = false))
  const body = `{"name":"Slow","categoryId":1,"pad":"${'p'.repeat(600)}"}`
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  )
  let sent = 0
  while (open_ && sent < body.length) {
    socket.write(body[sent]!)
    sent++
    await sleep(50)
  }
  await closed
  expect(sent).toBeLessThan(body.length)
  expect(await petCount()).toBe(3)
})

it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
  const socket = await openSocket(cli.url)
  const closed = untilClosed(socket)
  socket.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${KEY}\r\n\r\n`)
  const answer = parseResponse(await closed, false, true)
  expect(answer?.status).toBe(200)
  expect(answer?.headers.get('connection')).toBe('keep-alive')
})

it('leaves no trace of clients that disconnect mid-request, and keeps answering', async () => {
  const body = '{"name":"Gone","categoryId":1}'
  await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const socket = await openSocket(cli.url)
      socket.on('error', () => undefined)
      const head = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
      // Cut at every point: inside the head, right after it, and inside the body.
      const whole = head + body
      socket.write(whole.slice(0, Math.floor(((i + 1) / 21) * (whole.length - 1))))
      await sleep(20)
      socket.destroy()
    }),
  )
  await sleep(200)
  expect(await petCount()).toBe(3)
  expect(cli.child.exitCode).toBeNull()
  expect(cli.output()).not.toMatch(/error|exception/i)
})
