import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { build, preview, type PreviewServer } from 'vite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
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
const checks: Array<Promise<void>> = []

beforeAll(async () => {
  const output = await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } })
  moduleIds = (Array.isArray(output) ? output : [output])
    .flatMap((result) => ('output' in result ? result.output : []))
    .flatMap((chunk) => ('moduleIds' in chunk ? chunk.moduleIds : []))
  server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { port: 0, strictPort: false } })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
  // What the service worker answered is held to the contract like any other response.
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith('/v1/')) return
    checks.push(
      (async () => {
        const body = await response.body().catch(() => Buffer.alloc(0))
        const status = response.status()
        contract.check(
          response.request().method(),
          response.url(),
          new Response(status === 204 || body.byteLength === 0 ? null : new Uint8Array(body), { status, headers: await response.allHeaders() }),
        )
      })(),
    )
  })
  // A fixed start, ten seconds into a minute: the 60 requests of the Free key's window are all
  // sent before it rolls over, whatever the time of day the test runs at.
  await page.goto(`${server.resolvedUrls!.local[0]!}?now=2030-01-01T10:00:10Z`)
  await page.waitForSelector('#pets[aria-busy="false"]', { timeout: 30_000 })
})

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()))
})

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
  const forbidden = moduleIds.filter((id) => /@stoplight|\/dist\/node\/|commander|__vite-browser-external|^node:/.test(id))
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
  expect(await page.textContent('#message')).toMatch(/^Rate limit reached: Rate limit of 60 requests exceeded; retry in (\d+) s \(Retry-After: \1 s\)$/)
  await mkdir('test-results', { recursive: true })
  await page.screenshot({ path: SCREENSHOT, fullPage: true })

  await Promise.all(checks)
  expect(contract.count()).toBeGreaterThanOrEqual(61)
})

it('validates requests in the page with the same 400 messages as in Node', async () => {
  const answer = await page.evaluate(async () => {
    const response = await fetch('/v1/pets?limit=0&status=adopted', { headers: { Authorization: 'Bearer sandbox-pro-key' } })
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
  expect(await page.$$eval('#key option', (options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual([
    'sandbox-free-key',
    'sandbox-pro-key',
    'sandbox-business-key',
    'sandbox-enterprise-key',
  ])
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
  expect(await page.textContent('#deprecation')).toBe('GET /pets/{petId} was removed on Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.')
  expect(await page.isVisible('#message')).toBe(false)
  expect(await page.$$('.warning:visible, [role="alert"]:visible')).toHaveLength(1)
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
