import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type ApiError, type Pet } from '../../src/index.js'
import { createContractChecker } from '../support/contract-checker.js'

// An app that calls two APIs, both under /v1: the sandbox's handlers first, no baseUrl, the app's
// own weather API after them (D40).
const sandbox = createSandbox({ pets: 3 })
const forecast = { city: 'Lyon', celsius: 21 }
const fromWeather = { 'x-from': 'weather' }
const server = setupServer(
  ...sandbox.handlers,
  http.get('https://weather.example/v1/forecast', () => HttpResponse.json(forecast, { headers: fromWeather })),
  http.get('https://weather.example/v1', () => HttpResponse.json({ service: 'weather' }, { headers: fromWeather })),
  http.options(
    'https://weather.example/v1/forecast',
    () => new HttpResponse(null, { status: 204, headers: fromWeather }),
  ),
)
const contract = createContractChecker()
server.events.on('response:mocked', ({ request, response }) => {
  // Only the sandbox's answers are held to its contract; the weather API has its own.
  if (!response.headers.has('x-from')) contract.check(request.method, request.url, response)
})
const auth = { authorization: 'Bearer sandbox-free-key' }

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

it("leaves another API's /v1 paths to the app's own handlers listed after the sandbox's", async () => {
  const weather = await fetch('https://weather.example/v1/forecast', { headers: auth })
  expect(weather.status).toBe(200)
  expect(await weather.json()).toEqual(forecast)
  expect(await (await fetch('https://weather.example/v1')).json()).toEqual({ service: 'weather' })
  const preflight = await fetch('https://weather.example/v1/forecast', { method: 'OPTIONS' })
  expect(preflight.headers.get('x-from')).toBe('weather')
})

it("still answers the API's own paths on that origin, without baseUrl", async () => {
  const pets = await fetch('https://weather.example/v1/pets?limit=2', { headers: auth })
  expect(pets.status).toBe(200)
  expect(((await pets.json()) as Pet[]).map((pet) => pet.id)).toEqual([1, 2])
  const refused = await fetch('https://weather.example/v1/pets/1')
  expect(refused.status).toBe(401)
  // The areas the spec names without describing them are the API's too (D11).
  for (const path of ['/v1/store/orders', '/v1/categories']) {
    const unspecified = await fetch(`https://weather.example${path}`, { headers: auth })
    expect(unspecified.status).toBe(501)
    expect(((await unspecified.json()) as ApiError).code).toBe('not_implemented')
  }
})

it('lets a path outside the API reach the network layer: sandbox.fetch refuses it by name', async () => {
  await expect(sandbox.fetch('https://weather.example/v1/forecast')).rejects.toThrow(
    "outside the sandbox's API (/v1/pets, /v1/store and /v1/categories on any origin)",
  )
  expect(contract.count()).toBeGreaterThan(0)
})
