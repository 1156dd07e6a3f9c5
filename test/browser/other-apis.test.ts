import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createContractChecker } from '../support/contract-checker.js'
import { serveWorkerPage, type WorkerPage } from '../support/serve-worker-page.js'

// The page of test/browser/two-apis: the sandbox's handlers and the app's weather handler in one
// service worker, built by Vite with the demo's worker script (`npm run test:browser` writes it).
let served: WorkerPage
let page: Page
const contract = createContractChecker()

beforeAll(async () => {
  served = await serveWorkerPage('two-apis')
  page = served.page
})

afterAll(() => served?.close())

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
