import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { createContractChecker } from '../support/contract-checker.js'

// A consumer's test forcing one answer for one test: a handler of its own put in front of the
// sandbox's with `server.use()`, then `resetHandlers()`. The sandbox's handlers are msw handlers
// like any other, so this is all it takes.
const sandbox = createSandbox({ pets: 3 })
const server = setupServer(...sandbox.handlers)
const contract = createContractChecker()
server.events.on('response:mocked', ({ request, response }) => contract.check(request.method, request.url, response))
const headers = { authorization: 'Bearer sandbox-free-key' }

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const unavailable = () =>
  HttpResponse.json(
    { code: 'service_unavailable', message: 'forced by the test', status: 503 },
    {
      status: 503,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '60',
        'x-ratelimit-reset': '0',
      },
    },
  )

it('answers with a handler put in front of it by server.use(), and serves everything else itself', async () => {
  server.use(http.get('*/v1/pets', unavailable))

  const overridden = await fetch('http://api.test/v1/pets?limit=2', { headers })
  expect(overridden.status).toBe(503)
  expect(await overridden.json()).toMatchObject({ message: 'forced by the test' })

  const created = await fetch('http://api.test/v1/pets', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  expect(await created.json()).toMatchObject({ id: 4, name: 'Rex' })
  // The overridden request never reached the sandbox: only the create spent quota.
  expect(sandbox.quota.get('sandbox-free-key').minute.used).toBe(1)
})

it('answers itself again once the handlers are reset', async () => {
  const response = await fetch('http://api.test/v1/pets?limit=10', { headers })
  expect(response.status).toBe(200)
  expect(((await response.json()) as Array<{ id: number }>).map((pet) => pet.id).slice(0, 3)).toEqual([1, 2, 3])
  expect(contract.count()).toBeGreaterThan(0)
})
