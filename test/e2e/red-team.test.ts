import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { contractViolations } from '../support/contract.js'
import { parseResponse, rawExchange, rawRequest, toFetchResponse, type RawResponse } from '../support/raw-http.js'
import { openSocket, untilClosed } from '../support/raw-socket.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

const KEY = 'red-team-secret-key-7c1d'
let cli: CliProcess
let origin: string

beforeAll(async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-red-')), 'keys.json')
  await writeFile(
    file,
    JSON.stringify({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 }] }),
  )
  cli = await startCli(['--log', 'json', '--pets', '2', '--keys', file])
  origin = new URL(cli.url).origin
})
afterAll(async () => {
  await cli.stop()
})

async function checked(method: string, path: string, answer: RawResponse | undefined): Promise<RawResponse> {
  expect(answer, `${method} ${path}: an answer`).toBeDefined()
  expect(await contractViolations(method, `${origin}${path}`, toFetchResponse(answer!))).toEqual([])
  return answer!
}

/** A raw POST /v1/pets with the key, a JSON content type and one more header, checked against the contract. */
async function postPet(header: [string, string], body: string): Promise<RawResponse> {
  const request = rawRequest({
    method: 'POST',
    target: '/v1/pets',
    headers: [['Authorization', `Bearer ${KEY}`], ['Content-Type', 'application/json'], header],
    body,
  })
  return checked('POST', '/v1/pets', await rawExchange(cli.url, request))
}

const names = async () => {
  const answer = await checked(
    'GET',
    '/v1/pets?limit=100',
    await rawExchange(
      cli.url,
      rawRequest({ target: '/v1/pets?limit=100', headers: [['Authorization', `Bearer ${KEY}`]] }),
    ),
  )
  return (JSON.parse(answer.body.toString()) as Array<{ name: string }>).map((pet) => pet.name)
}

it('answers a pipelined valid POST before refusing the malformed request after it on the same socket', async () => {
  const body = '{"name":"Pipelined","categoryId":1}'
  const socket = await openSocket(cli.url)
  const closed = untilClosed(socket)
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
      'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Line\r\n\r\n',
  )
  const bytes = await closed
  const first = parseResponse(bytes, false, false)
  expect(first?.status).toBe(201)
  await checked('POST', '/v1/pets', first)
  const rest = bytes.subarray(bytes.indexOf(first!.body) + first!.body.byteLength)
  const second = parseResponse(rest, false, true)
  expect(second?.status).toBe(400)
  await checked('GET', '/v1/pets', second)
  expect(JSON.parse(second!.body.toString())).toMatchObject({ code: 'invalid_request', status: 400 })
  expect(await names()).toContain('Pipelined')
})

it('answers Expect it does not know with a 417 Error body and the rate-limit headers, storing nothing', async () => {
  const before = await names()
  const answer = await postPet(['Expect', 'nope'], '{"name":"Expected","categoryId":1}')
  expect(answer.status).toBe(417)
  expect(JSON.parse(answer.body.toString())).toEqual({
    code: 'expectation_failed',
    message: 'Expect "nope" is not supported; only 100-continue is',
    status: 417,
  })
  expect(await names()).toEqual(before)
})

it('refuses Transfer-Encoding gzip, chunked instead of reading it as plain chunked', async () => {
  const before = await names()
  const answer = await postPet(
    ['Transfer-Encoding', 'gzip, chunked'],
    '1e\r\n{"name":"Gzipped","categoryId":1}\r\n0\r\n\r\n',
  )
  expect(answer.status).toBe(400)
  expect(JSON.parse(answer.body.toString()).message).toBe(
    'Transfer-Encoding "gzip, chunked" is not supported; send chunked alone',
  )
  expect(await names()).toEqual(before)
})

it('reads //v1/pets as a path on this server, not a URL with the host v1', async () => {
  const answer = await checked(
    'GET',
    '//v1/pets',
    await rawExchange(cli.url, rawRequest({ target: '//v1/pets', headers: [['Authorization', `Bearer ${KEY}`]] })),
  )
  expect(answer.status).toBe(404)
  expect(JSON.parse(answer.body.toString()).message).toBe('//v1/pets is not part of the API; it is served under /v1')
})

it('masks a key percent-encoded in the query, and shows no part of a non-Bearer credential, in the log', async () => {
  const encoded = KEY.replaceAll('-', '%2D')
  const bearer = `/v1/pets?q=${encoded}`
  expect(
    (
      await checked(
        'GET',
        bearer,
        await rawExchange(cli.url, rawRequest({ target: bearer, headers: [['Authorization', `Bearer ${KEY}`]] })),
      )
    ).status,
  ).toBe(200)
  const basic = `/v1/pets?q=${encodeURIComponent(KEY)}%00`
  const credential: [string, string] = ['Authorization', 'Basic dXNlcjpzM2NyM3QtcGFzc3dvcmQ=']
  expect(
    (await checked('GET', basic, await rawExchange(cli.url, rawRequest({ target: basic, headers: [credential] }))))
      .status,
  ).toBe(401)
  await new Promise((resolve) => setTimeout(resolve, 100))
  const log = cli.output()
  expect(log).toContain('"url":"/v1/pets?q=red-…#')
  expect(log).not.toContain(encoded)
  expect(log).not.toContain(KEY)
  expect(log).not.toContain('dXNl')
  expect(log).toMatch(/"status":401,"ms":[\d.]+,"key":"…#[0-9a-f]{4}"/)
})
