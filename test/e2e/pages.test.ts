import { createRequire } from 'node:module'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validate } from '@readme/openapi-parser'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { expect, it } from 'vitest'
import { parse } from 'yaml'
import { adminDocument, createAdminContractChecker } from '../support/admin-contract.js'
import { contractDocument } from '../support/contract.js'
import { startCli } from '../support/start-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'
import { isPageAnswer, pagesDocument } from '../support/pages-contract.js'

const TOKEN = 'admin-token-for-pages'
const { call, url, contract } = useCliSandbox(['--admin-token', TOKEN, '--pets', '5'])
const origin = () => url().replace(/\/v1$/, '')
const adminContract = createAdminContractChecker()
const schemas = (adminDocument.components as { schemas: Record<string, object> }).schemas
const ajv = new Ajv({ strict: false })
addFormats.default(ajv)
const isError = ajv.compile(schemas.Error!)
// With the whole document, for the entry's references to other schemas (its session's name).
const isLogEntry = ajv
  .addSchema(adminDocument as object, 'admin')
  .getSchema('admin#/components/schemas/RequestLogEntry')!

/** Requests a page; its answer is checked against fixtures/pages-openapi.yaml (through the contract checker). */
async function page(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${origin()}${path}`, init)
  expect(isPageAnswer(init.method ?? 'GET', response.url, response), `${path} answered as a page`).toBe(true)
  contract.check(init.method ?? 'GET', response.url, response)
  if (response.status >= 400) expect(isError(await response.clone().json())).toBe(true)
  return response
}

it('describes the pages in a valid OpenAPI document', async () => {
  const result = await validate(structuredClone(pagesDocument) as never)
  expect(result.valid ? [] : result.errors).toEqual([])
})

it('serves fixtures/openapi.yaml as it is, with servers pointing at this sandbox', async () => {
  const response = await page('/openapi.yaml')
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/yaml; charset=utf-8')
  const served = parse(await response.text())
  expect(served.servers).toEqual([{ url: url(), description: 'This petstore-sandbox' }])
  expect({ ...served, servers: contractDocument.servers }).toEqual(contractDocument)
})

it('serves the same document as JSON, readable from any origin', async () => {
  const response = await page('/openapi.json')
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
  const served = await response.json()
  expect(served.servers).toEqual([{ url: url(), description: 'This petstore-sandbox' }])
  expect({ ...served, servers: contractDocument.servers }).toEqual(contractDocument)
  // getPet takes any int64, as the spec's petId is: one that names no pet is a 404 (D37).
  expect(served.paths['/pets/{petId}'].get.parameters[0].schema).toEqual({ type: 'integer', format: 'int64' })
})

it('points servers at the host the client used when it is a plain host name, and ignores any other Host', async () => {
  const port = new URL(url()).port
  // fetch sends the Host of its URL whatever it is told: node:http sends the one given.
  const serversFor = (host: string) =>
    new Promise<unknown>((resolve, reject) => {
      request(`${origin()}/openapi.json`, { headers: { host } }, (response) => {
        let text = ''
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === 'string') headers.set(name, value)
          contract.check(
            'GET',
            `${origin()}/openapi.json`,
            new Response(text, { status: response.statusCode ?? 0, headers }),
          )
          resolve(JSON.parse(text).servers)
        })
      })
        .on('error', reject)
        .end()
    })
  expect(await serversFor(`localhost:${port}`)).toEqual([
    { url: `http://localhost:${port}/v1`, description: 'This petstore-sandbox' },
  ])
  expect(await serversFor('evil"host/<x>')).toEqual([{ url: url(), description: 'This petstore-sandbox' }])
})

it('answers / with the front door: HTML for browsers, JSON for Accept: application/json, no key and no quota', async () => {
  const htmlPage = await page('/', { headers: { accept: 'text/html' } })
  expect(htmlPage.status).toBe(200)
  expect(htmlPage.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(htmlPage.headers.get('vary')).toBe('Accept')
  const text = await htmlPage.text()
  expect(text).toContain(`<code id="base-url">${url()}</code>`)
  expect(text).toContain('sandbox-free-key')
  expect(text).not.toContain(TOKEN)
  expect(text).not.toMatch(/<script(?![^>]*\bsrc=)/)

  const json = await (await page('/', { headers: { accept: 'application/json' } })).json()
  expect(json).toMatchObject({ name: 'petstore-sandbox', baseUrl: url() })
  expect(json.demoKeys.map((key: { plan: string }) => key.plan)).toEqual(['free', 'pro', 'business', 'enterprise'])
  expect(Object.values(json.links).map((link) => (link as { href: string }).href)).toEqual([
    '/reference',
    '/openapi.yaml',
    '/openapi.json',
    '/postman.json',
    '/healthz',
    '/readyz',
    '/__sandbox/',
  ])
  // The pages spent nothing: the free key's whole minute is still there.
  expect((await call('/pets?limit=1', { key: 'sandbox-free-key' })).headers.get('x-ratelimit-remaining')).toBe('59')
})

it('serves the reference and the dashboard shell with no token in them, and their assets from the package', async () => {
  const reference = await (await page('/reference')).text()
  expect(reference).toContain('data-demo-key="sandbox-free-key"')
  const swaggerUi = (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version
  expect(reference).toContain(`<script defer src="/assets/swagger-ui/swagger-ui-bundle.js?v=${swaggerUi}"></script>`)
  // The document travels in the page, as /openapi.json serves it, with no `<` to end its element.
  const block = /<script type="application\/json" id="openapi-document">([^<]*)<\/script>/.exec(reference)
  expect(JSON.parse(block![1]!)).toEqual(await (await page('/openapi.json')).json())
  // Under the versioned URL Swagger UI's files are cached for good; under another, for an hour.
  expect((await page(`/assets/swagger-ui/swagger-ui-bundle.js?v=${swaggerUi}`)).headers.get('cache-control')).toBe(
    'public, max-age=31536000, immutable',
  )
  expect((await page('/assets/swagger-ui/swagger-ui.css?v=0.0.1')).headers.get('cache-control')).toBe(
    'public, max-age=3600',
  )
  const dashboard = await (await page('/__sandbox/')).text()
  expect(dashboard).toContain('<script type="module" src="/assets/dashboard.js"></script>')
  expect(dashboard).not.toContain(TOKEN)
  for (const asset of [
    '/assets/swagger-ui/swagger-ui-bundle.js',
    '/assets/reference.js',
    '/assets/dashboard.js',
    '/assets/dashboard-view.js',
    '/assets/admin-client.js',
    '/assets/key-row.js',
    '/assets/fault-row.js',
    '/assets/request-log-view.js',
    '/assets/render-proxy-panel.js',
    '/assets/session-panel.js',
  ]) {
    const response = await page(asset)
    expect(response.status, asset).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  }
  expect((await page('/assets/swagger-ui/swagger-ui.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
  expect((await page('/assets/pages.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
})

it('refuses other methods on pages with 405 and Allow, and leaves unknown assets to the API 404', async () => {
  const post = await page('/reference', { method: 'POST', body: 'x' })
  expect(post.status).toBe(405)
  expect(post.headers.get('allow')).toBe('GET, HEAD')
  const head = await page('/openapi.json', { method: 'HEAD' })
  expect(head.status).toBe(200)
  expect(await head.text()).toBe('')
  expect((await call(`${origin()}/assets/../package.json`)).status).toBe(404)
  expect((await call(`${origin()}/assets/nothing.js`)).status).toBe(404)
  expect(contract.count()).toBeGreaterThan(0)
})

it('pushes each answered request on the event stream, key masked, only with the admin token', async () => {
  for (const authorization of [undefined, 'Bearer wrong-token-123', 'Bearer sandbox-enterprise-key']) {
    const refused = await page('/__sandbox/events', authorization ? { headers: { authorization } } : {})
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/)
  }
  const controller = new AbortController()
  const stream = await page('/__sandbox/events', {
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: controller.signal,
  })
  expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
  expect((await reader.read()).value).toBe(': petstore-sandbox request log\n\n')
  await call('/pets/%3Cimg%20src=x%3E', { key: 'sandbox-pro-key' })
  let text = ''
  while (!text.includes('\n\n')) text += (await reader.read()).value
  controller.abort()
  const [event, data] = text.split('\n')
  expect(event).toBe('event: request')
  const entry = JSON.parse(data!.slice('data: '.length))
  expect(isLogEntry(entry)).toBe(true)
  expect(entry).toMatchObject({ method: 'GET', path: '/v1/pets/%3Cimg%20src=x%3E', status: 400, key: 'sand…#f4a4' })
  expect(text).not.toContain('sandbox-pro-key')
})

it('ends open event streams on SIGTERM, so the process exits cleanly', async () => {
  const own = await startCli(['--log', 'off', '--pets', '1', '--admin-token', TOKEN])
  const stream = await fetch(`${own.url.replace(/\/v1$/, '')}/__sandbox/events`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  contract.check('GET', stream.url, stream)
  const reader = stream.body!.getReader()
  await reader.read()
  expect(await own.stop('SIGTERM')).toEqual({ code: 0, signal: null })
  let done = false
  while (!done) done = (await reader.read().catch(() => ({ done: true }))).done
})

it('without demo keys or an admin token: no keys on the front door or in the reference, and no dashboard', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-pages-'))
  await writeFile(join(directory, 'keys.json'), JSON.stringify({ keys: [{ key: 'team-secret-key', plan: 'pro' }] }))
  const own = await startCli(['--log', 'off', '--pets', '1', '--keys', join(directory, 'keys.json')])
  try {
    const base = own.url.replace(/\/v1$/, '')
    const door = await fetch(`${base}/`, { headers: { accept: 'application/json' } })
    contract.check('GET', door.url, door)
    const json = await door.json()
    expect(json.demoKeys).toBeUndefined()
    expect(Object.keys(json.links)).toEqual(['reference', 'openapiYaml', 'openapiJson', 'postman', 'healthz', 'readyz'])
    const reference = await fetch(`${base}/reference`)
    contract.check('GET', reference.url, reference)
    const text = await reference.text()
    expect(text).toContain('data-demo-key=""')
    expect(text).not.toContain('team-secret-key')
    expect((await call(`${base}/__sandbox/`)).status).toBe(404)
    expect((await call(`${base}/__sandbox/events`)).status).toBe(404)
  } finally {
    await own.stop()
  }
})

it('never writes the admin token to the log, whatever the dashboard calls', async () => {
  const own = await startCli(['--log', 'json', '--pets', '1', '--admin-token', TOKEN])
  const base = own.url.replace(/\/v1$/, '')
  const authorization = `Bearer ${TOKEN}`
  const checked = async (url: string, checker: { check: typeof contract.check }) => {
    const response = await fetch(url, { headers: { authorization } })
    checker.check('GET', url, response)
    return response
  }
  const answers = [
    await checked(`${base}/__sandbox/`, contract),
    await checked(`${base}/__sandbox/state`, adminContract),
    await checked(`${base}/__sandbox/requests?limit=5`, adminContract),
    await checked(`${own.url}/pets`, contract),
  ]
  const stream = await checked(`${base}/__sandbox/events`, contract)
  await stream.body!.getReader().read()
  await own.stop()
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401])
  expect(own.output()).toContain('"status":401')
  expect(own.output()).not.toContain(TOKEN)
})

it('sends the assets gzipped to clients that accept it, and as they are to the others', async () => {
  const plain = await new Promise<{ encoding: string | undefined; length: number }>((resolve, reject) => {
    request(`${origin()}/assets/swagger-ui/swagger-ui-bundle.js`, (response) => {
      let length = 0
      response.on('data', (chunk: Buffer) => (length += chunk.byteLength))
      response.on('end', () => resolve({ encoding: response.headers['content-encoding'], length }))
    })
      .on('error', reject)
      .end()
  })
  expect(plain.encoding).toBeUndefined()
  // fetch asks for gzip and decodes it: the same bytes arrive.
  const gzipped = await page('/assets/swagger-ui/swagger-ui-bundle.js')
  expect(gzipped.headers.get('content-encoding')).toBe('gzip')
  expect(gzipped.headers.get('vary')).toBe('Accept-Encoding')
  expect(Number(gzipped.headers.get('content-length'))).toBeLessThan(plain.length / 2)
  expect((await gzipped.arrayBuffer()).byteLength).toBe(plain.length)
})

it("answers a browser's /favicon.ico with no icon, and never logs it nor keeps it for the HAR", async () => {
  const own = await startCli(['--log', 'json', '--pets', '1', '--admin-token', TOKEN])
  const base = own.url.replace(/\/v1$/, '')
  const icon = await fetch(`${base}/favicon.ico`)
  contract.check('GET', `${base}/favicon.ico`, icon)
  expect(icon.status).toBe(204)
  expect(icon.headers.get('cache-control')).toBe('public, max-age=86400')
  // An API request after it, whose line shows that the log prints what comes in.
  expect((await fetch(`${own.url}/pets`)).status).toBe(401)
  const har = await fetch(`${base}/__sandbox/requests.har`, { headers: { authorization: `Bearer ${TOKEN}` } })
  adminContract.check('GET', `${base}/__sandbox/requests.har`, har)
  const urls = ((await har.json()) as { log: { entries: Array<{ request: { url: string } }> } }).log.entries.map(
    (entry) => new URL(entry.request.url).pathname,
  )
  await own.stop()
  expect(urls).toEqual(['/v1/pets'])
  expect(own.output()).toContain('"status":401')
  expect(own.output()).not.toContain('favicon')
})
