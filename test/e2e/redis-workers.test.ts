import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { runCli, startCli, type CliProcess } from '../support/start-cli.js'
import { startRedis, type RedisServer } from '../support/start-redis.js'

// `--workers <n>`: n processes on one port, one sandbox through Redis.
const contract = createContractChecker()
const adminContract = createAdminContractChecker()
const ADMIN_TOKEN = 'admin-token-for-worker-tests'
let redis: RedisServer
let cli: CliProcess

beforeAll(async () => {
  redis = await startRedis()
  cli = await startCli(['--log', 'off', '--redis', redis.url, '--workers', '2', '--admin-token', ADMIN_TOKEN])
})
afterAll(async () => {
  await cli?.stop()
  await redis?.remove()
})

it('serves one port from two workers that keep one quota: a burst over many connections gets exactly 60', async () => {
  expect(cli.output()).toContain('2 worker processes serve this port')
  // The top of a minute, so the window cannot roll over during the burst.
  const clock = `${cli.url.replace(/\/v1$/, '')}/__sandbox/clock`
  const moved = await fetch(clock, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ set: '2030-01-01T00:00:00Z' }),
  })
  adminContract.check('POST', clock, moved)
  expect(moved.status).toBe(200)
  const responses = await Promise.all(
    Array.from({ length: 100 }, async () => {
      const url = `${cli.url}/pets?limit=1`
      // A connection each, so the primary hands them to both workers.
      const response = await fetch(url, { headers: { authorization: 'Bearer sandbox-free-key', connection: 'close' } })
      contract.check('GET', url, response)
      return response
    }),
  )
  expect(responses.filter((response) => response.status === 200)).toHaveLength(60)
  expect(responses.filter((response) => response.status === 429)).toHaveLength(40)
})

it('stops every worker on SIGTERM and exits 0', async () => {
  const other = await startCli(['--log', 'off', '--redis', redis.url, '--redis-prefix', 'stopping:', '--workers', '2'])
  expect(await other.stop('SIGTERM')).toEqual({ code: 0, signal: null })
})

it('refuses --workers without --redis, in one line', async () => {
  const refused = await runCli(['start', '--port', '0', '--workers', '2'])
  expect(refused.code).toBe(1)
  expect(refused.stderr.trim().split('\n')).toEqual([
    'error: --workers requires --redis: the workers share their state through it',
  ])
})

it('leaves no connection hanging when a worker is killed outright: each is answered or closed, and the port keeps serving', async () => {
  const other = await startCli(['--log', 'off', '--redis', redis.url, '--redis-prefix', 'killed:', '--workers', '2'])
  try {
    const { port } = new URL(other.url)
    const workers = readFileSync(`/proc/${other.child.pid}/task/${other.child.pid}/children`, 'utf8')
      .trim()
      .split(' ')
      .map(Number)
    expect(workers).toHaveLength(2)
    // Connections opened without pause while a worker is killed: one is being handed over, or
    // accepted, at the moment it dies.
    const outcomes: Array<Promise<'answered' | 'closed' | 'hanging'>> = []
    const opening = setInterval(() => {
      for (let i = 0; i < 5; i++) outcomes.push(probeConnection(Number(port)))
    }, 5)
    await sleep(300)
    process.kill(workers[0]!, 'SIGKILL')
    await sleep(300)
    clearInterval(opening)
    const settled = await Promise.all(outcomes)
    expect(settled.length).toBeGreaterThan(50)
    expect(settled.filter((outcome) => outcome === 'hanging')).toEqual([])
    // How many are answered rather than closed depends on how busy the machine is; that some are shows the port serving.
    expect(settled.filter((outcome) => outcome === 'answered').length).toBeGreaterThan(0)
    // The replacement serves.
    await expect.poll(() => other.output(), { timeout: 10_000 }).toMatch(/starting another/)
    const url = `${other.url}/pets?limit=1`
    const served = await fetch(url, { headers: { authorization: 'Bearer sandbox-free-key', connection: 'close' } })
    contract.check('GET', url, served)
    expect(served.status).toBe(200)
  } finally {
    await other.stop()
  }
}, 30_000)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A request on a fresh connection: answered, closed without an answer, or still open after 5 s. */
function probeConnection(port: number): Promise<'answered' | 'closed' | 'hanging'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve('hanging')
    }, 5_000)
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'))
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(received.startsWith('HTTP/1.1 200') ? 'answered' : 'closed')
    })
  })
}
