import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { build, preview, type PreviewServer } from 'vite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createContractChecker } from '../support/contract-checker.js'
import { launchChromium } from '../support/launch-chromium.js'

// The page of test/browser/two-apis: the sandbox's handlers and the app's weather handler in one
// service worker, built by Vite with the demo's worker script (`npm run test:browser` writes it).
const root = fileURLToPath(new URL('two-apis/', import.meta.url))
const publicDir = fileURLToPath(new URL('../../examples/browser-demo/public', import.meta.url))
const outDir = fileURLToPath(new URL('../../test-results/two-apis-dist', import.meta.url))

let server: PreviewServer
let browser: Browser
let page: Page
const contract = createContractChecker()

beforeAll(async () => {
  const config = {
    root,
    publicDir,
    configFile: false as const,
    logLevel: 'error' as const,
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  }
  await build(config)
  server = await preview({ ...config, preview: { host: '127.0.0.1', port: 0, strictPort: false } })
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(server.resolvedUrls!.local[0]!)
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached', timeout: 30_000 })
})

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()))
})

/** A fetch made by the page, read back whole. */
function pageFetch(url: string, key?: string) {
  return page.evaluate(
    async ({ url, key }) => {
      const response = await fetch(url, key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } })
      return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() }
    },
    { url, key },
  )
}

it("gives the app's handler listed after the sandbox's its own answer for another API's /v1 path", async () => {
  const weather = await pageFetch('https://weather.example/v1/forecast', 'sandbox-free-key')
  expect(weather.status).toBe(200)
  expect(JSON.parse(weather.text)).toEqual({ city: 'Lyon', celsius: 21 })
})

it("still answers the API's own paths on that origin, from the sandbox", async () => {
  const url = 'https://weather.example/v1/pets?limit=2'
  const pets = await pageFetch(url, 'sandbox-free-key')
  contract.check('GET', url, new Response(pets.text, { status: pets.status, headers: pets.headers }))
  expect(pets.status).toBe(200)
  expect((JSON.parse(pets.text) as Array<{ id: number }>).map((pet) => pet.id)).toEqual([1, 2])
  expect(pets.headers['x-ratelimit-limit']).toBe('60')
})
