import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../src/core/request-log/create-request-log.js'
import type { Har, HarEntry } from '../../src/core/request-log/to-har.js'
import { adminContractViolations } from '../support/admin-contract.js'
import { createContractChecker } from '../support/contract-checker.js'
import { startUpstream, UPSTREAM_KEY, type Mutation } from '../support/mutants/start-upstream.js'
import { listenOnLoopback, rawExchange } from '../support/raw-http.js'
import { startCli, type CliProcess } from '../support/start-cli.js'

// Under `petstore-sandbox proxy`, GET /__sandbox/requests.har is the proxy's own request log:
// what the upstream answered and what the sandbox answered in its place, bodies included.
const ADMIN_TOKEN = 'proxy-har-admin-token'
const CLIENT_ONLY_KEY = 'client-only-key-7f3a9c'
const contract = createContractChecker()
const admin = createContractChecker(adminContractViolations, 'admin responses that break fixtures/admin-openapi.yaml')

const running: Array<{ close(): Promise<void> } | CliProcess> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => ('stop' in item ? item.stop() : item.close())))
})

async function proxy(upstreamUrl: string, args: string[] = []): Promise<CliProcess & { origin: string }> {
  const keys = join(await mkdtemp(join(tmpdir(), 'proxy-har-')), 'keys.json')
  await writeFile(keys, JSON.stringify({ keys: [{ key: UPSTREAM_KEY, plan: 'pro' }] }))
  const cli = await startCli(
    ['--upstream', upstreamUrl, '--log', 'off', '--admin-token', ADMIN_TOKEN, '--keys', keys, ...args],
    {},
    'proxy',
  )
  running.push(cli)
  return { ...cli, origin: cli.url.replace(/\/v1$/, '') }
}

/** A request through the proxy, with the upstream's key unless another is given. */
async function send(cli: CliProcess, path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const { key = UPSTREAM_KEY, ...rest } = init
  const headers = new Headers(rest.headers)
  headers.set('authorization', `Bearer ${key}`)
  return fetch(`${cli.url}${path}`, { ...rest, headers })
}

/** A request through the proxy whose answer is held to the API's contract. */
async function call(cli: CliProcess, path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const response = await send(cli, path, init)
  contract.check(init.method ?? 'GET', `${cli.url}${path}`, response.clone())
  return response
}

/** An admin call, held to fixtures/admin-openapi.yaml. */
async function adminCall(origin: string, path: string, token = ADMIN_TOKEN): Promise<Response> {
  const url = `${origin}/__sandbox${path}`
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  admin.check('GET', url, response.clone())
  return response
}

async function har(origin: string, query = ''): Promise<{ text: string; har: Har }> {
  const response = await adminCall(origin, `/requests.har${query}`)
  expect(response.status).toBe(200)
  expect(response.headers.get('x-sandbox-source')).toBe('sandbox')
  const text = await response.text()
  return { text, har: JSON.parse(text) as Har }
}

const header = (headers: Array<{ name: string; value: string }>, name: string) =>
  headers.find((one) => one.name.toLowerCase() === name)?.value
const source = (entry: HarEntry) => header(entry.response.headers, 'x-sandbox-source')

/** The upstream has not built createPet for a request that says so (501), so the proxy falls back for it. */
const createLater: Mutation = async (request, answer) =>
  request.method === 'POST' && request.headers.has('x-not-built-yet')
    ? Response.json({ code: 'not_implemented', message: 'later', status: 501 }, { status: 501 })
    : answer(request)

it("serves the upstream's exchanges and the fallback's in one HAR, bodies and statuses included, no key or admin token in full", async () => {
  const upstream = await startUpstream(createLater, (request, response) =>
    contract.check(request.method, request.url, response),
  )
  running.push(upstream)
  const cli = await proxy(upstream.url, ['--fallback'])

  const listed = await call(cli, '/pets?limit=2')
  expect(listed.headers.get('x-sandbox-source')).toBe('upstream')
  const listedText = await listed.text()
  const createdBody = JSON.stringify({ name: `named after ${UPSTREAM_KEY}`, categoryId: 2 })
  const created = await call(cli, '/pets', {
    method: 'POST',
    body: createdBody,
    headers: { 'content-type': 'application/json', 'x-trace': `copied ${ADMIN_TOKEN}` },
  })
  expect(created.status).toBe(201)
  expect(created.headers.get('x-sandbox-source')).toBe('upstream')
  const createdText = await created.text()
  const fallenBack = await call(cli, '/pets', {
    method: 'POST',
    body: JSON.stringify({ name: 'Biscuit', categoryId: 3 }),
    headers: { 'content-type': 'application/json', 'x-not-built-yet': '1' },
  })
  expect(fallenBack.status).toBe(201)
  expect(fallenBack.headers.get('x-sandbox-source')).toBe('sandbox')
  const fallenBackText = await fallenBack.text()
  // The admin token sent where a key goes: the upstream refuses it, and the HAR must not show it.
  const wrongKey = await call(cli, '/pets', { key: ADMIN_TOKEN })
  expect(wrongKey.status).toBe(401)
  const wrongKeyText = await wrongKey.text()

  const { text, har: document } = await har(cli.origin)
  for (const secret of [UPSTREAM_KEY, ADMIN_TOKEN]) expect(text).not.toContain(secret)
  expect(document.log.version).toBe('1.2')
  const entries = document.log.entries
  expect(
    entries.map((entry) => `${entry.request.method} ${entry.request.url} ${entry.response.status} ${source(entry)}`),
  ).toEqual([
    `GET ${cli.url}/pets?limit=2 200 upstream`,
    `POST ${cli.url}/pets 201 upstream`,
    `POST ${cli.url}/pets 201 sandbox`,
    `GET ${cli.url}/pets 401 upstream`,
  ])
  const [list, create, fallback, refused] = entries as [HarEntry, HarEntry, HarEntry, HarEntry]

  expect(list.response.content.text).toBe(listedText)
  expect(list.response.content.mimeType).toMatch(/^application\/json/)
  expect(list.request.postData).toBeUndefined()
  expect(header(list.request.headers, 'authorization')).toMatch(/^Bearer upst…#[0-9a-f]{4}$/)
  expect(list._key).toMatch(/^upst…#[0-9a-f]{4}$/)

  // The body the proxy read and the one it wrote, the key in them masked as in the entry.
  expect(create.request.postData?.mimeType).toBe('application/json')
  expect(JSON.parse(create.request.postData!.text)).toEqual({
    name: expect.stringMatching(/^named after upst…#[0-9a-f]{4}$/),
    categoryId: 2,
  })
  expect(header(create.request.headers, 'x-trace')).toMatch(/^copied …#[0-9a-f]{4}$/)
  const stored = JSON.parse(createdText) as { id: number }
  expect(JSON.parse(create.response.content.text!)).toMatchObject({
    id: stored.id,
    name: expect.stringMatching(/^named after upst…/),
  })

  expect(JSON.parse(fallback.request.postData!.text)).toEqual({ name: 'Biscuit', categoryId: 3 })
  expect(fallback.response.content.text).toBe(fallenBackText)

  expect(refused._key).toMatch(/^…#[0-9a-f]{4}$/)
  expect(JSON.parse(refused.response.content.text!)).toEqual(JSON.parse(wrongKeyText))

  // One exchange by the id of its entry in the proxy's list, as under `start`.
  const ids = (
    (await (await adminCall(cli.origin, '/requests')).json()) as { requests: RequestLogEntry[] }
  ).requests.map((entry) => entry.id!)
  expect(ids).toHaveLength(4)
  const one = await har(cli.origin, `?id=${encodeURIComponent(ids[2]!)}`)
  expect(one.har.log.entries).toHaveLength(1)
  expect(one.har.log.entries[0]).toEqual(fallback)

  // An id not kept is a 404 Error body; a query the admin document refuses, a 400; no token, a 401.
  const unknown = await adminCall(cli.origin, `/requests.har?id=${encodeURIComponent(`${ids[0]!.split('-')[0]}-999`)}`)
  expect(unknown.status).toBe(404)
  expect(await unknown.json()).toMatchObject({
    code: 'not_found',
    status: 404,
    message: expect.stringContaining('no exchange'),
  })
  const empty = await adminCall(cli.origin, '/requests.har?id=')
  expect(empty.status).toBe(400)
  expect(await empty.json()).toMatchObject({ code: 'invalid_request', status: 400 })
  expect((await adminCall(cli.origin, '/requests.har', 'not-the-admin-token')).status).toBe(401)
  // The gate's refusal is listed and in the HAR too; the HAR calls it let through are not.
  const after = (await har(cli.origin)).har.log.entries
  expect(after.slice(0, 4)).toEqual(entries)
  expect(
    after.slice(4).map((entry) => `${entry.request.method} ${entry.request.url} ${entry.response.status}`),
  ).toEqual([`GET ${cli.origin}/__sandbox/requests.har 401`])
})

it("keeps JSON and text bodies as text, a compressed one as decoded, and leaves out the rest: what is not text, what is over the log's limit", async () => {
  const pets = [{ id: 1, name: 'Ace', categoryId: 2, status: 'sold' }]
  const rateLimit = ['X-RateLimit-Limit', '60', 'X-RateLimit-Remaining', '59', 'X-RateLimit-Reset', '4102444800']
  const large = JSON.stringify({ id: 2, name: 'Biscuit', categoryId: 2, status: 'pending', notes: 'x'.repeat(100_000) })
  const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const server = await listenOnLoopback((incoming, outgoing) => {
    incoming.resume()
    incoming.on('end', () => {
      const path = incoming.url!
      if (path.startsWith('/v1/pets?')) {
        outgoing.writeHead(200, [
          'Content-Type',
          'application/json; charset=utf-8',
          'Content-Encoding',
          'gzip',
          ...rateLimit,
        ])
        return void outgoing.end(gzipSync(JSON.stringify(pets)))
      }
      if (path === '/v1/pets/1') {
        outgoing.writeHead(200, ['Content-Type', 'application/octet-stream', ...rateLimit])
        return void outgoing.end(binary)
      }
      if (path === '/v1/pets/4') {
        // An upstream that echoes the key it does not know.
        outgoing.writeHead(401, ['Content-Type', 'application/json', 'WWW-Authenticate', 'Bearer', ...rateLimit])
        return void outgoing.end(
          JSON.stringify({
            code: 'unauthorized',
            message: `unknown key ${incoming.headers.authorization}`,
            status: 401,
          }),
        )
      }
      if (path === '/v1/pets/3') {
        outgoing.writeHead(503, ['Content-Type', 'text/plain; charset=utf-8', 'Retry-After', '5'])
        return void outgoing.end('down for maintenance')
      }
      outgoing.writeHead(incoming.method === 'POST' ? 201 : 200, [
        'Content-Type',
        'application/problem+json',
        ...rateLimit,
      ])
      outgoing.end(large)
    })
  })
  running.push(server)
  const cli = await proxy(`${server.origin}/v1`)

  // The compressed list is a valid answer once decoded, as fetch decodes it.
  const list = await call(cli, '/pets?limit=1')
  expect(await list.json()).toEqual(pets)
  // These answers break the API's contract on purpose (a drifting upstream): they are not checked against it.
  const image = await send(cli, '/pets/1')
  expect(Buffer.from(await image.arrayBuffer()).equals(binary)).toBe(true)
  expect((await send(cli, '/pets/3')).status).toBe(503)
  expect((await send(cli, '/pets/2')).status).toBe(200)
  // A key the proxy's sandbox does not know (only the upstream does), echoed in the upstream's body.
  expect((await send(cli, '/pets/4', { key: CLIENT_ONLY_KEY })).status).toBe(401)
  const sentLarge = JSON.stringify({ name: 'Biscuit', categoryId: 2, notes: 'y'.repeat(70_000) })
  expect(
    (await send(cli, '/pets', { method: 'POST', body: sentLarge, headers: { 'content-type': 'application/json' } }))
      .status,
  ).toBe(201)

  // A target that is no URL: listed, but with no URL a HAR could replay, left out of it.
  expect((await rawExchange(cli.url, 'GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))?.status).toBe(
    400,
  )
  const requests = ((await (await adminCall(cli.origin, '/requests')).json()) as { requests: RequestLogEntry[] })
    .requests
  expect(requests.map((entry) => entry.path).at(-1)).toBe('(not a URL)')

  const { text, har: document } = await har(cli.origin)
  expect(text).not.toContain(CLIENT_ONLY_KEY)
  const [gzipped, octets, plain, tooLong, echoed, postedLong] = document.log.entries as [
    HarEntry,
    HarEntry,
    HarEntry,
    HarEntry,
    HarEntry,
    HarEntry,
  ]
  expect(document.log.entries).toHaveLength(6)
  expect(gzipped.response.content.text).toBe(JSON.stringify(pets))
  expect(header(gzipped.response.headers, 'content-encoding')).toBe('gzip')

  // Not text: the entry is there, with its status and headers, and no body.
  expect(octets.response.status).toBe(200)
  expect(octets.response.content.mimeType).toBe('application/octet-stream')
  expect(octets.response.content.text).toBeUndefined()
  expect(source(octets)).toBe('upstream')

  expect(plain.response.status).toBe(503)
  expect(plain.response.content).toMatchObject({ mimeType: 'text/plain; charset=utf-8', text: 'down for maintenance' })

  // Over the log's limit: left out, its size said.
  expect(tooLong.response.content.text).toBeUndefined()
  expect(tooLong.response.content.size).toBe(Buffer.byteLength(large))
  expect(tooLong.response.content.comment).toContain(`${Buffer.byteLength(large)}`)
  expect(echoed.response.status).toBe(401)
  expect(JSON.parse(echoed.response.content.text!).message).toMatch(/^unknown key Bearer clie…#[0-9a-f]{4}$/)

  expect(postedLong.request.postData).toBeUndefined()
  expect(postedLong.request.bodySize).toBe(Buffer.byteLength(sentLarge))
  expect(postedLong.response.content.text).toBeUndefined()
})
