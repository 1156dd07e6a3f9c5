import { afterAll, beforeAll, expect, it } from 'vitest'
import { adminContractViolations } from '../support/admin-contract.js'
import { contractViolations } from '../support/contract.js'
import { rawExchange, rawRequest, toFetchResponse } from '../support/raw-http.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

const ADMIN_TOKEN = 'admin-token-of-the-proxy-tests'
let trusting: CliProcess
let plain: CliProcess
let forwarded: CliProcess

beforeAll(async () => {
  // The proxy is 127.0.0.1 (and the 127.0.0.8/29 range); every other loopback address is a client.
  // The clocks start at a minute's first instant: the counts below stay in one rate-limit window
  // (and one window of wrong admin tokens) however slowly a busy machine runs them.
  const clock = ['--now', '2030-01-01T00:00:00Z']
  ;[trusting, plain, forwarded] = await Promise.all([
    startCli([
      '--log',
      'off',
      '--pets',
      '1',
      ...clock,
      '--trust-proxy',
      '127.0.0.1',
      '127.0.0.8/29',
      '--admin-token',
      ADMIN_TOKEN,
    ]),
    startCli(['--log', 'off', '--pets', '1', ...clock]),
    startCli([
      ...['--log', 'off', '--pets', '1', ...clock, '--trust-proxy', '127.0.0.1', '127.0.0.8/29'],
      ...['--trust-proxy-header', 'forwarded', '--admin-token', ADMIN_TOKEN],
    ]),
  ])
})
afterAll(async () => {
  await Promise.all([trusting?.stop(), plain?.stop(), forwarded?.stop()])
})

/**
 * What is left of the per-address quota (D16) of whoever the server takes the client of this
 * keyless request to be: each call spends one request of that bucket.
 */
async function remaining(cli: CliProcess, from: string, headers: Array<[string, string]> = []): Promise<number> {
  const answer = await rawExchange(cli.url, rawRequest({ target: '/v1/pets', headers }), { localAddress: from })
  expect(answer?.status).toBe(401)
  expect(await contractViolations('GET', `${new URL(cli.url).origin}/v1/pets`, toFetchResponse(answer!))).toEqual([])
  return Number(answer!.headers.get('x-ratelimit-remaining'))
}

it('takes the client from X-Forwarded-For when the peer is a trusted proxy: one bucket per forwarded client', async () => {
  const a = await remaining(trusting, '127.0.0.1', [['X-Forwarded-For', '203.0.113.1']])
  expect(await remaining(trusting, '127.0.0.1', [['X-Forwarded-For', '203.0.113.1']])).toBe(a - 1)
  expect(await remaining(trusting, '127.0.0.1', [['X-Forwarded-For', '203.0.113.2']])).toBe(a)
  // Through two trusted proxies, the address before them is the client's.
  expect(await remaining(trusting, '127.0.0.1', [['X-Forwarded-For', '203.0.113.1, 127.0.0.9']])).toBe(a - 2)
})

it('reads Forwarded (RFC 7239), with quoted IPv6 and ports, only where --trust-proxy-header names it, and then never X-Forwarded-For', async () => {
  const first = await remaining(forwarded, '127.0.0.1', [
    ['Forwarded', 'for="[2001:db8:cafe::17]:4711";proto=https'],
    ['X-Forwarded-For', '203.0.113.50'],
  ])
  expect(await remaining(forwarded, '127.0.0.1', [['Forwarded', 'for="[2001:db8:cafe::17]:80"']])).toBe(first - 1)
  expect(await remaining(forwarded, '127.0.0.1', [['Forwarded', 'for=198.51.100.7:1234, for=127.0.0.10']])).toBe(first)
  // X-Forwarded-For is the client's own there: all of these are the proxy itself, one bucket.
  const proxy = await remaining(forwarded, '127.0.0.1', [['X-Forwarded-For', '203.0.113.50']])
  expect(await remaining(forwarded, '127.0.0.1', [['X-Forwarded-For', '203.0.113.51']])).toBe(proxy - 1)
  expect(await remaining(forwarded, '127.0.0.1', [['Forwarded', 'for="broken']])).toBe(proxy - 2)
})

it('reads only X-Forwarded-For by default: a fresh Forwarded on each try buys no fresh bucket, nor fresh admin-token guesses (D24)', async () => {
  // The proxy appends to X-Forwarded-For and passes Forwarded on as the client wrote it.
  const behind = (forged: number): Array<[string, string]> => [
    ['Forwarded', `for=198.51.100.${forged}`],
    ['X-Forwarded-For', '203.0.113.99'],
  ]
  const first = await remaining(trusting, '127.0.0.1', behind(1))
  expect(await remaining(trusting, '127.0.0.1', behind(2))).toBe(first - 1)
  expect(await remaining(trusting, '127.0.0.1', behind(3))).toBe(first - 2)
  const guess = async (forged: number, token: string) => {
    const headers: Array<[string, string]> = [['Authorization', `Bearer ${token}`], ...behind(forged)]
    const answer = await rawExchange(trusting.url, rawRequest({ target: '/__sandbox/state', headers }), {
      localAddress: '127.0.0.1',
    })
    expect(
      await adminContractViolations('GET', `${new URL(trusting.url).origin}/__sandbox/state`, toFetchResponse(answer!)),
    ).toEqual([])
    return answer!.status
  }
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) statuses.push(await guess(10 + i, `wrong-token-${i}`))
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
  expect(statuses.slice(10)).toEqual([429, 429])
  // Locked out as one guesser, whatever Forwarded says, the right token too.
  expect(await guess(99, ADMIN_TOKEN)).toBe(429)
})

it('ignores both headers from a peer it does not trust: a spoofed header does not buy a fresh bucket', async () => {
  const spoofer = '127.0.0.40'
  const start = await remaining(trusting, spoofer)
  expect(await remaining(trusting, spoofer, [['X-Forwarded-For', '198.51.100.1']])).toBe(start - 1)
  expect(await remaining(trusting, spoofer, [['Forwarded', 'for=198.51.100.2']])).toBe(start - 2)
  expect(await remaining(trusting, spoofer, [['X-Forwarded-For', '127.0.0.1']])).toBe(start - 3)
  // Without --trust-proxy nobody is trusted, 127.0.0.1 included.
  const local = await remaining(plain, '127.0.0.1', [['X-Forwarded-For', '198.51.100.3']])
  expect(await remaining(plain, '127.0.0.1', [['X-Forwarded-For', '198.51.100.4']])).toBe(local - 1)
})

it('survives hostile Forwarded headers from a trusted proxy: each is a 401 with its quota headers, never a 5xx', async () => {
  const hostile: Array<Array<[string, string]>> = [
    [['Forwarded', 'for=']],
    [['Forwarded', 'for="unterminated']],
    [['Forwarded', 'for=unknown']],
    [['Forwarded', 'for=_hidden, for=_secret']],
    [['Forwarded', ';;;,,,===']],
    [['Forwarded', `for=${'9'.repeat(4000)}`]],
    [['Forwarded', Array.from({ length: 500 }, (_, i) => `for=10.0.${i % 250}.1`).join(', ')]],
    [['Forwarded', 'by=127.0.0.1;proto=http']],
    [
      ['Forwarded', 'for=198.51.100.9'],
      ['Forwarded', 'for=not an address'],
    ],
    [['X-Forwarded-For', ' , ,,']],
    [['X-Forwarded-For', '::ffff:198.51.100.10']],
    [['X-Forwarded-For', '999.999.999.999']],
  ]
  for (const cli of [trusting, forwarded])
    for (const headers of hostile) expect(await remaining(cli, '127.0.0.1', headers)).toBeGreaterThanOrEqual(0)
})

it('counts a forwarded IPv6 client per /64 network, and IPv4 and IPv4-mapped clients each alone (D32)', async () => {
  const from = (address: string) => remaining(trusting, '127.0.0.1', [['X-Forwarded-For', address]])
  const first = await from('2001:db8:64:1::a')
  expect(await from('2001:db8:64:1:ffff:ffff:ffff:ffff')).toBe(first - 1)
  expect(await from('2001:DB8:64:1::B')).toBe(first - 2)
  const viaForwarded = await remaining(forwarded, '127.0.0.1', [['Forwarded', 'for="[2001:db8:64:1::c]:443"']])
  expect(await remaining(forwarded, '127.0.0.1', [['Forwarded', 'for="[2001:db8:64:1::d]:443"']])).toBe(
    viaForwarded - 1,
  )
  // Another /64 of the same /48 is another client.
  expect(await from('2001:db8:64:2::a')).toBe(first)
  const v4 = await from('198.51.100.64')
  expect(await from('198.51.100.65')).toBe(v4)
  const mapped = await from('::ffff:198.51.100.66')
  expect(await from('::ffff:198.51.100.67')).toBe(mapped)
})

it('counts wrong admin tokens of a forwarded IPv6 client per /64 network (D32)', async () => {
  const state = async (address: string, token: string) => {
    const headers: Array<[string, string]> = [
      ['Authorization', `Bearer ${token}`],
      ['X-Forwarded-For', address],
    ]
    const answer = await rawExchange(trusting.url, rawRequest({ target: '/__sandbox/state', headers }), {
      localAddress: '127.0.0.1',
    })
    expect(
      await adminContractViolations('GET', `${new URL(trusting.url).origin}/__sandbox/state`, toFetchResponse(answer!)),
    ).toEqual([])
    return answer!.status
  }
  for (let i = 0; i < 10; i++) expect(await state(`2001:db8:77:1::${i + 1}`, `wrong-token-${i}`)).toBe(401)
  // A fresh address of the same /64 is the same guesser: locked out, the right token too.
  expect(await state('2001:db8:77:1::ffff', ADMIN_TOKEN)).toBe(429)
  expect(await state('2001:db8:77:2::1', ADMIN_TOKEN)).toBe(200)
})
