// The sandbox as an e2e suite meets it: the CLI started as Playwright's webServer, the API called by
// a page of a frontend on another origin in a real browser, and the sandbox arranged and reset
// through the admin API.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import type { ApiError, Pet } from 'petstore-sandbox'
import { checkResponse } from '../suite/contract.js'

const APP = 'http://app.localhost:5173/'
const admin = { Authorization: `Bearer ${process.env.SANDBOX_ADMIN_TOKEN}` }

interface Answer<Body> {
  status: number
  headers: Headers
  body: Body
}

/** Calls the API from the page, as the frontend does, and holds the answer to the contract. */
async function fromPage<Body = ApiError>(
  page: Page,
  method: string,
  path: string,
  { key = 'sandbox-free-key', body }: { key?: string; body?: unknown } = {},
): Promise<Answer<Body>> {
  const url = `${test.info().project.use.baseURL}/v1${path}`
  const answer = await page.evaluate(
    async ({ url, method, key, body }) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` }
      if (body !== undefined) headers['Content-Type'] = 'application/json'
      const response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: response.status, headers: [...response.headers], text: await response.text() }
    },
    { url, method, key, body },
  )
  const result = {
    status: answer.status,
    headers: new Headers(answer.headers),
    body: answer.text === '' ? undefined : JSON.parse(answer.text),
  }
  expect(checkResponse(method, url, result)).toEqual([])
  return result
}

/** An admin call; its answer is held to the admin API's contract. */
async function adminCall(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  data?: unknown,
): Promise<unknown> {
  const response = await request.fetch(`/__sandbox${path}`, { method, headers: admin, data })
  const result = { status: response.status(), headers: new Headers(response.headers()), body: await response.json() }
  expect(checkResponse(method, response.url(), result)).toEqual([])
  expect(result.status).toBe(200)
  return result.body
}

test.beforeEach(async ({ page, request }) => {
  await adminCall(request, 'POST', '/reset')
  // The admin reset keeps the clock, so each test also puts it back to real time.
  await adminCall(request, 'POST', '/clock', { set: new Date().toISOString() })
  // The frontend's page, served by the test itself: the API calls are cross-origin, as in production.
  await page.route(APP, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Animal Store</title>' }),
  )
  await page.goto(APP)
})

test('lists the seeded pets: the first 20 by default, and filtered by status', async ({ page }) => {
  const first = await fromPage<Pet[]>(page, 'GET', '/pets')
  const sold = await fromPage<Pet[]>(page, 'GET', '/pets?status=sold&limit=100')

  expect(first.status).toBe(200)
  expect(first.body.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1))
  expect(sold.body.length).toBeGreaterThan(0)
  expect(sold.body.every((pet) => pet.status === 'sold')).toBe(true)
})

test('creates a pet, then gets it with the Deprecation, Sunset and Link of getPet, readable by the page', async ({
  page,
}) => {
  const created = await fromPage<Pet>(page, 'POST', '/pets', {
    body: { name: 'Biscuit', categoryId: 2, status: 'pending' },
  })
  const got = await fromPage<Pet>(page, 'GET', `/pets/${created.body.id}`)

  expect(created.status).toBe(201)
  expect(created.body).toEqual({ id: 51, name: 'Biscuit', categoryId: 2, status: 'pending' })
  expect(got.status).toBe(200)
  expect(got.body).toEqual(created.body)
  expect(got.headers.get('deprecation')).toBe(`@${Date.parse('2025-12-05T00:00:00Z') / 1000}`)
  expect(got.headers.get('sunset')).toBe(new Date('2030-12-05T00:00:00Z').toUTCString())
  expect(got.headers.get('link')).toBe('</v1/pets>; rel="successor-version"')
})

test('answers an unknown key with a 401 Error body', async ({ page }) => {
  const result = await fromPage(page, 'GET', '/pets', { key: 'not-a-real-key' })

  expect(result.status).toBe(401)
  expect(result.body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 })
})

test('answers a limit out of range with a 400 Error body', async ({ page }) => {
  const result = await fromPage(page, 'GET', '/pets?limit=0')

  expect(result.status).toBe(400)
  expect(result.body).toEqual({ code: 'invalid_request', message: 'limit must be between 1 and 100', status: 400 })
})

test('answers 429 from the minute window once the admin API leaves no quota', async ({ page, request }) => {
  await adminCall(request, 'PATCH', '/keys/sandbox-free-key', { remaining: 0 })

  const result = await fromPage(page, 'GET', '/pets')

  expect(result.status).toBe(429)
  expect(result.body).toEqual({ code: 'rate_limited', message: expect.any(String), status: 429 })
  expect(result.headers.get('x-ratelimit-limit')).toBe('60')
  expect(result.headers.get('x-ratelimit-remaining')).toBe('0')
  expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect(Number(result.headers.get('retry-after'))).toBeLessThanOrEqual(60)
})

test('starts afresh after the admin reset: created pets gone, the quota full again', async ({ page, request }) => {
  await fromPage(page, 'POST', '/pets', { body: { name: 'Leftover', categoryId: 1 } })
  await adminCall(request, 'PATCH', '/keys/sandbox-free-key', { remaining: 0 })

  const state = (await adminCall(request, 'POST', '/reset')) as { pets: { count: number } }
  const result = await fromPage<Pet[]>(page, 'GET', '/pets?limit=100')

  expect(state.pets).toMatchObject({ count: 50 })
  expect(result.status).toBe(200)
  expect(result.body).toHaveLength(50)
  expect(result.body.map((pet) => pet.name)).not.toContain('Leftover')
  expect(result.headers.get('x-ratelimit-remaining')).toBe(String(60 - 1))
})

test('answers 410 gone from getPet once the admin API moves the clock to the sunset', async ({ page, request }) => {
  await adminCall(request, 'POST', '/clock', { set: '2030-12-05T00:00:00Z' })

  const result = await fromPage(page, 'GET', '/pets/1')

  expect(result.status).toBe(410)
  expect(result.body).toEqual({ code: 'gone', message: expect.any(String), status: 410 })
})
