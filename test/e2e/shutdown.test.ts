import { connect } from 'node:net'
import { expect, it } from 'vitest'
import { contractViolations } from '../support/contract.js'
import { parseResponse, toFetchResponse } from '../support/raw-http.js'
import { openSocket, untilClosed } from '../support/raw-socket.js'
import { startCli } from '../support/start-cli.js'

const KEY = 'Bearer sandbox-enterprise-key'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10)
}

it('finishes in-flight requests on SIGTERM under load, refuses new ones and exits 0 within 5 s', async () => {
  const cli = await startCli(['--log', 'off'])
  const origin = new URL(cli.url).origin

  // Load: 20 keep-alive clients listing and creating until the server goes away.
  let stopping = false
  const statuses: number[] = []
  const violations: string[] = []
  const load = Array.from({ length: 20 }, async (_, i) => {
    while (!stopping) {
      const create = i % 4 === 0
      const url = `${cli.url}/pets${create ? '' : '?limit=5'}`
      try {
        const response = await fetch(url, {
          method: create ? 'POST' : 'GET',
          headers: { authorization: KEY, 'content-type': 'application/json' },
          ...(create ? { body: '{"name":"Load","categoryId":1}' } : {}),
        })
        statuses.push(response.status)
        violations.push(...(await contractViolations(create ? 'POST' : 'GET', url, response)))
        await response.arrayBuffer()
      } catch {
        // Refused or closed once the server shuts down: expected; the loop ends with the process.
        if (cli.child.exitCode !== null || stopping) break
        await sleep(20)
      }
    }
  })
  await waitFor(() => statuses.length >= 200)

  // In flight: heads and half of the bodies sent; the rest comes after SIGTERM.
  const body = '{"name":"In flight","categoryId":2}'
  const inFlight = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const socket = await openSocket(cli.url)
      const closed = untilClosed(socket)
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      )
      return { socket, closed }
    }),
  )
  // A stalled client: it never finishes its request, and must not hold the process open.
  const stalled = await openSocket(cli.url)
  stalled.on('error', () => undefined)
  stalled.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n')

  // Give the server the moment it needs to read those heads: a connection whose head it has not
  // read yet is idle, and idle connections are closed at once on SIGTERM (that is no in-flight request).
  await sleep(300)
  const signalled = performance.now()
  const exited = cli.stop('SIGTERM')
  await waitFor(() => cli.output().includes('Shutting down'))

  // New connections are refused.
  const refused = await new Promise<string>((resolve) => {
    const { hostname, port } = new URL(cli.url)
    const socket = connect(Number(port), hostname, () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
  })
  expect(refused).toBe('ECONNREFUSED')

  for (const { socket } of inFlight) socket.write(body.slice(10))
  const answers = await Promise.all(inFlight.map(async ({ closed }) => parseResponse(await closed, false, true)))
  for (const answer of answers) {
    expect(answer?.status).toBe(201)
    expect(answer?.headers.get('connection')).toBe('close')
    expect(await contractViolations('POST', `${origin}/v1/pets`, toFetchResponse(answer!))).toEqual([])
  }

  const { code } = await exited
  const elapsed = performance.now() - signalled
  stopping = true
  await Promise.all(load)
  expect(code).toBe(0)
  expect(elapsed).toBeLessThan(5_000)
  expect(statuses.length).toBeGreaterThanOrEqual(200)
  expect(statuses.filter((status) => status >= 500)).toEqual([])
  expect(violations).toEqual([])
})
