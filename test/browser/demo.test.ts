import { mkdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { build, preview, type PreviewServer } from 'vite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Capsule, createSandbox } from '../../src/index.js'
import { adminContractViolations, createAdminContractChecker } from '../support/admin-contract.js'
import { startCli } from '../support/start-cli.js'
import { createContractChecker } from '../support/contract-checker.js'
import { launchChromium } from '../support/launch-chromium.js'

// The browser demo (examples/browser-demo) as `npm run demo` serves it: built by Vite, served by
// `vite preview`, the API answered by msw's service worker in the page. `npm run test:browser`
// runs `msw init` first, so the worker script is the one the installed msw generates.
const configFile = fileURLToPath(new URL('../../examples/browser-demo/vite.config.ts', import.meta.url))
const outDir = fileURLToPath(new URL('../../test-results/browser-demo-dist', import.meta.url))
const SCREENSHOT = 'test-results/browser-demo.png'

let server: PreviewServer
let browser: Browser
let page: Page
let moduleIds: string[] = []
const contract = createContractChecker()
const adminContract = createAdminContractChecker()
const ADMIN_TOKEN = 'admin-token-for-the-demo-capsule'
const checks: Array<Promise<void>> = []

beforeAll(async () => {
  const output = await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } })
  moduleIds = (Array.isArray(output) ? output : [output])
    .flatMap((result) => ('output' in result ? result.output : []))
    .flatMap((chunk) => ('moduleIds' in chunk ? chunk.moduleIds : []))
  server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { port: 0, strictPort: false } })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
  watch(page)
  // A fixed start, ten seconds into a minute: the 60 requests of the Free key's window are all
  // sent before it rolls over, whatever the time of day the test runs at.
  await page.goto(`${server.resolvedUrls!.local[0]!}?now=2030-01-01T10:00:10Z`)
  await page.waitForSelector('#pets[aria-busy="false"]', { timeout: 30_000 })
})

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()))
})

/** What the service worker answered `page` is held to the contract like any other response. */
function watch(page: Page): void {
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith('/v1/')) return
    checks.push(
      (async () => {
        const body = await response.body().catch(() => Buffer.alloc(0))
        // An answer read as its page closes can no longer be read: nothing to check.
        const headers = await response.allHeaders().catch(() => undefined)
        if (headers === undefined) return
        const status = response.status()
        contract.check(
          response.request().method(),
          response.url(),
          new Response(status === 204 || body.byteLength === 0 ? null : new Uint8Array(body), { status, headers }),
        )
      })(),
    )
  })
}

const requestsSoFar = async () => Number(await page.getAttribute('body', 'data-requests'))

/** Clicks and waits until the app has shown the answer of one more request. */
async function oneMoreRequest(click: () => Promise<void>) {
  const before = await requestsSoFar()
  await click()
  await page.waitForFunction((count) => Number(document.body.dataset.requests) > count, before)
}

it('bundles the library for the browser without Node-only modules, the CLI or prism', () => {
  expect(moduleIds.some((id) => id.includes('/dist/core/sandbox/create-sandbox.js'))).toBe(true)
  expect(moduleIds.some((id) => id.includes('/dist/core/validation/create-request-validator.js'))).toBe(true)
  const forbidden = moduleIds.filter((id) =>
    /@stoplight|\/dist\/node\/|commander|__vite-browser-external|^node:/.test(id),
  )
  expect(forbidden).toEqual([])
})

it('lists the seeded pets, served by the service worker', async () => {
  const expected = createSandbox({ seed: 1, pets: 12 })
  await expected.ready()
  const names = await page.$$eval('#pets li', (items) => items.map((item) => item.firstChild?.textContent))
  expect(names).toEqual(expected.pets.all().map((pet) => `#${pet.id} ${pet.name}`))
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/mockServiceWorker\.js$/)
})

it('creates a pet and shows it in the list', async () => {
  await page.fill('#create input[name="name"]', 'Biscuit')
  await page.selectOption('#create select[name="status"]', 'pending')
  await oneMoreRequest(() => page.click('#create button[type="submit"]'))
  await page.waitForSelector('#pets li[data-id="13"]')
  expect(await page.textContent('#pets li[data-id="13"]')).toBe('#13 Biscuitpending')
})

it('filters the list by status', async () => {
  await oneMoreRequest(() => page.selectOption('#status', 'pending').then(() => undefined))
  await page.waitForSelector('#pets[aria-busy="false"]')
  const statuses = await page.$$eval('#pets li .status', (badges) => badges.map((badge) => badge.textContent))
  expect(statuses.length).toBeGreaterThan(0)
  expect(new Set(statuses)).toEqual(new Set(['pending']))
})

it('shows the deprecation warning of the pet lookup, and the rate-limit headers', async () => {
  await oneMoreRequest(() => page.click('#lookup button[type="submit"]'))
  expect(await page.isVisible('#deprecation')).toBe(true)
  expect(await page.textContent('#deprecation')).toBe(
    'GET /pets/{petId} is deprecated and will be removed on Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.',
  )
  expect(await page.textContent('#limit')).toBe('60')
  expect(await page.textContent('#reset')).toBe('10:01:00 UTC')
  expect(Number(await page.textContent('#remaining'))).toBe(60 - (await requestsSoFar()))
})

it('shows a rate-limit message on the 61st request of a Free key', async () => {
  while ((await requestsSoFar()) < 60) await oneMoreRequest(() => page.click('#refresh'))
  expect(await page.textContent('#remaining')).toBe('0')
  expect(await page.isVisible('#message')).toBe(false)

  await oneMoreRequest(() => page.click('#refresh'))

  expect(await requestsSoFar()).toBe(61)
  expect(await page.isVisible('#message')).toBe(true)
  expect(await page.getAttribute('#message', 'data-code')).toBe('rate_limited')
  expect(await page.textContent('#message')).toMatch(
    /^Rate limit reached: Rate limit of 60 requests exceeded; retry in (\d+) s \(Retry-After: \1 s\)$/,
  )
  await mkdir('test-results', { recursive: true })
  await page.screenshot({ path: SCREENSHOT, fullPage: true })

  await Promise.all(checks)
  expect(contract.count()).toBeGreaterThanOrEqual(61)
})

it('validates requests in the page with the same 400 messages as in Node', async () => {
  const answer = await page.evaluate(async () => {
    const response = await fetch('/v1/pets?limit=0&status=adopted', {
      headers: { Authorization: 'Bearer sandbox-pro-key' },
    })
    return { status: response.status, body: await response.json() }
  })
  expect(answer).toEqual({
    status: 400,
    body: {
      code: 'invalid_request',
      message: 'limit must be between 1 and 100; status must be one of available, pending, sold',
      status: 400,
    },
  })
  await Promise.all(checks)
})

it('offers a key of each of the four plans', async () => {
  expect(
    await page.$$eval('#key option', (options) => options.map((option) => (option as HTMLOptionElement).value)),
  ).toEqual(['sandbox-free-key', 'sandbox-pro-key', 'sandbox-business-key', 'sandbox-enterprise-key'])
})

it('rehearses a plan change through the sandbox object in the page', async () => {
  expect(await page.inputValue('#plan')).toBe('free')
  await page.selectOption('#plan', 'pro')
  await oneMoreRequest(() => page.click('#set-plan'))
  expect(await page.textContent('#limit')).toBe('300')
  expect(await page.isVisible('#message')).toBe(false)
})

it('moves the clock past the sunset, and shows one deprecation banner at a time', async () => {
  await oneMoreRequest(() => page.click('#past-sunset'))
  expect(await page.textContent('#clock')).toMatch(/^2030-12-06 /)
  await oneMoreRequest(() => page.click('#lookup button[type="submit"]'))
  expect(await page.textContent('#deprecation')).toBe(
    'GET /pets/{petId} was removed on Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.',
  )
  expect(await page.isVisible('#message')).toBe(false)
  expect(await page.$$('.warning:visible, [role="alert"]:visible')).toHaveLength(1)
})

it('clears the "was removed" banner on going back to real time, and the next lookup says what is true then', async () => {
  await oneMoreRequest(() => page.click('#real-time'))
  expect(await page.isVisible('#deprecation')).toBe(false)
  await oneMoreRequest(() => page.click('#lookup button[type="submit"]'))
  expect(await page.textContent('#deprecation')).toMatch(/^GET \/pets\/\{petId\} is deprecated and will be removed on /)
})

it('resets the sandbox from the page: the created pet is gone', async () => {
  await oneMoreRequest(() => page.click('#reset-sandbox'))
  await page.selectOption('#status', '')
  await oneMoreRequest(() => page.click('#refresh'))
  expect(await page.$$('#pets li[data-id="13"]')).toEqual([])
  expect(await page.$$('#pets li[data-id]')).toHaveLength(12)
  await Promise.all(checks)
})

it('puts the selected key in a scenario picked in the page; the other keys are untouched', async () => {
  await page.selectOption('#key', 'sandbox-free-key')
  await page.waitForFunction(() => document.querySelector('#pets')?.getAttribute('aria-busy') === 'false')
  await oneMoreRequest(() => page.selectOption('#scenario', 'down').then(() => undefined))
  expect(await page.getAttribute('#message', 'data-code')).toBe('service_unavailable')
  expect(await page.textContent('#message')).toContain('scenario down of this key')
  await oneMoreRequest(() => page.selectOption('#key', 'sandbox-pro-key').then(() => undefined))
  expect(await page.isVisible('#message')).toBe(false)
  expect(await page.$$('#pets li[data-id]')).toHaveLength(12)
  expect(await page.inputValue('#scenario')).toBe('')
  await oneMoreRequest(() => page.selectOption('#scenario', 'empty').then(() => undefined))
  expect(await page.$$('#pets li[data-id]')).toHaveLength(0)
  await oneMoreRequest(() => page.selectOption('#scenario', '').then(() => undefined))
  expect(await page.$$('#pets li[data-id]')).toHaveLength(12)
  await Promise.all(checks)
})

it('never shows an empty list while the service worker starts', async () => {
  const fresh = await browser.newPage()
  // Recorded from the first parse on: the smallest number of items the list ever had.
  await fresh.addInitScript(() => {
    const w = window as unknown as { fewest: number }
    w.fewest = Number.POSITIVE_INFINITY
    const watch = () => {
      const list = document.getElementById('pets')
      if (list === null) return requestAnimationFrame(watch)
      w.fewest = Math.min(w.fewest, list.children.length)
      new MutationObserver(() => {
        w.fewest = Math.min(w.fewest, list.children.length)
      }).observe(list, { childList: true })
    }
    watch()
  })
  await fresh.goto(`${server.resolvedUrls!.local[0]!}?now=2030-01-01T10:00:10Z`)
  await fresh.waitForSelector('#pets[aria-busy="false"]', { timeout: 30_000 })
  expect(await fresh.evaluate(() => (window as unknown as { fewest: number }).fewest)).toBeGreaterThanOrEqual(1)
  expect(await fresh.$$('#pets li[data-id]')).toHaveLength(12)
  await fresh.close()
})

/** A new page of the demo with its own sandbox, its clock at a minute's 10th second, its pets listed. */
async function freshDemo(): Promise<Page> {
  const fresh = await browser.newPage({ viewport: { width: 1100, height: 900 }, acceptDownloads: true })
  watch(fresh)
  await fresh.goto(`${server.resolvedUrls!.local[0]!}?now=2030-01-01T10:00:10Z`)
  await fresh.waitForSelector('#pets[aria-busy="false"]', { timeout: 30_000 })
  return fresh
}

/** A request as the app makes it, from the page: through the service worker. */
type Sent = { path: string; key: string; session?: string; create?: string }

/** What a restored world must repeat of an answer: status, the rate-limit and scenario headers, the body. */
const SHOWN = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-sandbox-scenario',
  'x-sandbox-session',
]

/** An answer as compared: the path, the status, the SHOWN headers, then the body. */
interface Answer {
  line: string
  body: string
}

async function inPage(page: Page, sent: Sent): Promise<Answer> {
  return page.evaluate(
    async ({ sent, shown }) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${sent.key}`,
        'content-type': 'application/json',
      }
      if (sent.session !== undefined) headers['x-sandbox-session'] = sent.session
      const init: RequestInit =
        sent.create === undefined
          ? { headers }
          : { method: 'POST', headers, body: JSON.stringify({ name: sent.create, categoryId: 2 }) }
      const response = await fetch(`/v1${sent.path}`, init)
      return {
        line: `${sent.path} ${response.status} ${shown.map((name) => `${name}=${response.headers.get(name)}`).join(' ')}`,
        body: await response.text(),
      }
    },
    { sent, shown: SHOWN },
  )
}

it("saves the page's world as a capsule that createSandbox({ from }) and PUT /__sandbox/sessions/{name} restore, answer by answer", async () => {
  const fresh = await freshDemo()
  // A world arranged by hand in the page: a pet created, a key in a scenario, and the quota those
  // requests spent. The page's clock starts at a minute's 10th second, so both worlds answer in
  // that minute's window whatever the machine's pace, and their X-RateLimit-Reset agree.
  await fresh.fill('#create input[name="name"]', 'Saved in a capsule')
  await fresh.click('#create button[type="submit"]')
  await fresh.waitForSelector('#pets li[data-id="13"]')
  await fresh.selectOption('#key', 'sandbox-pro-key')
  await fresh.selectOption('#scenario', 'down')
  await fresh.waitForFunction(() => document.getElementById('message')?.dataset.code === 'service_unavailable')

  const [download] = await Promise.all([fresh.waitForEvent('download'), fresh.click('#save-capsule')])
  expect(download.suggestedFilename()).toBe('animal-store-demo.capsule.json')
  const text = await readFile((await download.path())!, 'utf8')
  // The file is what GET /__sandbox/sessions/{name}/capsule answers: the admin document's Capsule.
  const asServed = new Response(text, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } })
  expect(
    await adminContractViolations('GET', 'http://sandbox.test/__sandbox/sessions/default/capsule', asServed),
  ).toEqual([])
  const capsule = JSON.parse(text) as Capsule
  expect(capsule).toMatchObject({
    kind: 'petstore-sandbox/capsule',
    version: 1,
    session: 'default',
    nextId: 14,
    scenarios: { 'sandbox-pro-key': 'down' },
  })
  expect(capsule.pets.find((pet) => pet.id === 13)).toMatchObject({ name: 'Saved in a capsule', status: 'available' })
  expect(capsule.clock.startsWith('2030-01-01T10:00:')).toBe(true)

  // The same requests in the page and in a sandbox made from the capsule in Node get the same
  // answers: bodies and rate-limit headers of the same minute's window.
  const restored = createSandbox({ from: capsule })
  await restored.ready()
  const sequence: Sent[] = [
    { path: '/pets?limit=20', key: 'sandbox-free-key' },
    { path: '/pets/13', key: 'sandbox-free-key' },
    { path: '/pets', key: 'sandbox-free-key', create: 'After the capsule' },
    { path: '/pets?status=available&limit=5', key: 'sandbox-business-key' },
    { path: '/pets?limit=5', key: 'sandbox-pro-key' },
  ]
  /** The sequence sent through `send` from Node, its answers held to the contract. */
  const inNode = async (base: string, send: typeof fetch, extra: Record<string, string> = {}) => {
    const answers: Answer[] = []
    for (const sent of sequence) {
      const url = `${base}${sent.path}`
      const headers = { authorization: `Bearer ${sent.key}`, 'content-type': 'application/json', ...extra }
      const init: RequestInit =
        sent.create === undefined
          ? { headers }
          : { method: 'POST', headers, body: JSON.stringify({ name: sent.create, categoryId: 2 }) }
      const response = await send(url, init)
      contract.check(init.method ?? 'GET', url, response.clone())
      answers.push({
        line: `${sent.path} ${response.status} ${SHOWN.map((name) => `${name}=${response.headers.get(name)}`).join(' ')}`,
        body: await response.text(),
      })
    }
    return answers
  }
  const original: Answer[] = []
  for (const sent of sequence) original.push(await inPage(fresh, sent))
  const again = await inNode('http://api.test/v1', restored.fetch)
  expect(original.map((answer) => answer.line.split(' ').slice(0, 2).join(' '))).toEqual([
    '/pets?limit=20 200',
    '/pets/13 200',
    '/pets 201',
    '/pets?status=available&limit=5 200',
    '/pets?limit=5 503',
  ])
  expect(again).toEqual(original)

  // Restored over HTTP into a session of a running sandbox, the same: only the session is named.
  const cli = await startCli(['--log', 'off', '--admin-token', ADMIN_TOKEN])
  try {
    const target = `${cli.url.replace(/\/v1$/, '')}/__sandbox/sessions/from-demo`
    const put = await fetch(target, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ capsule }),
    })
    adminContract.check('PUT', target, put.clone())
    expect(put.status).toBe(200)
    expect(await put.json()).toMatchObject({ name: 'from-demo', origin: 'capsule', pets: { count: 13, nextId: 14 } })
    const overHttp = await inNode(cli.url, fetch, { 'x-sandbox-session': 'from-demo' })
    expect(
      overHttp.map((answer) => ({
        ...answer,
        line: answer.line.replace('x-sandbox-session=from-demo', 'x-sandbox-session=null'),
      })),
    ).toEqual(original)
  } finally {
    await cli.stop()
  }
  await Promise.all(checks)
  await fresh.close()
}, 120_000)

it('honours X-Sandbox-Session in the service worker: two sessions each see their own pets', async () => {
  const fresh = await freshDemo()
  const names = (answer: Answer) => (JSON.parse(answer.body) as Array<{ name: string }>).map((pet) => pet.name)
  const created = await inPage(fresh, {
    path: '/pets',
    key: 'sandbox-enterprise-key',
    session: 'tab-a',
    create: 'Only in A',
  })
  expect(created.line).toMatch(/^\/pets 201 .*x-sandbox-session=tab-a$/)
  const inA = await inPage(fresh, { path: '/pets?limit=100', key: 'sandbox-enterprise-key', session: 'tab-a' })
  const inB = await inPage(fresh, { path: '/pets?limit=100', key: 'sandbox-enterprise-key', session: 'tab-b' })
  const inDefault = await inPage(fresh, { path: '/pets?limit=100', key: 'sandbox-enterprise-key' })
  expect(names(inA)).toContain('Only in A')
  expect(names(inA)).toHaveLength(13)
  expect(inB.line).toMatch(/x-sandbox-session=tab-b$/)
  expect(names(inB)).not.toContain('Only in A')
  expect(names(inB)).toHaveLength(12)
  // The default session, the app's, answers as it always did: no session header, none of A's pets.
  expect(inDefault.line).toMatch(/x-sandbox-session=null$/)
  expect(names(inDefault)).toHaveLength(12)
  // Each session's ids and quota are its own: B's first pet gets the id A's got, and the key's quota is spent per session.
  expect(
    (await inPage(fresh, { path: '/pets', key: 'sandbox-enterprise-key', session: 'tab-b', create: 'Only in B' })).body,
  ).toMatch(/"id":13/)
  const remaining = (answer: Answer) => Number(/x-ratelimit-remaining=(\d+)/.exec(answer.line)![1])
  const [a, b] = [
    await inPage(fresh, { path: '/pets/13', key: 'sandbox-enterprise-key', session: 'tab-a' }),
    await inPage(fresh, { path: '/pets/13', key: 'sandbox-enterprise-key', session: 'tab-b' }),
  ]
  expect(a.body).toContain('"name":"Only in A"')
  expect(b.body).toContain('"name":"Only in B"')
  // Three requests of the Enterprise key (5000 a minute) in each session, one in the default session.
  expect([remaining(a), remaining(b), remaining(inDefault)]).toEqual([4997, 4997, 4999])
  // A name outside the rule is refused in the page as over HTTP.
  const refused = await inPage(fresh, { path: '/pets', key: 'sandbox-enterprise-key', session: '.hidden' })
  expect(refused.line).toMatch(/^\/pets 400 /)
  expect(refused.body).toContain('X-Sandbox-Session must be')
  await Promise.all(checks)
  await fresh.close()
})
