import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Pet } from '../../src/index.js'
import { createContractChecker } from '../support/contract-checker.js'

// One server for the file with no handlers of its own; each test brings a fresh sandbox through
// `server.use()` inside `server.boundary()`, which scopes the handlers to that test, so tests may
// even run concurrently without seeing each other's pets or quotas.
const server = setupServer()
const contract = createContractChecker()
server.events.on('response:mocked', ({ request, response }) => contract.check(request.method, request.url, response))
// An unhandled request fails as a network error, as with 'error', without msw printing an error for
// the one test that makes one on purpose: a passing run prints nothing on stderr.
beforeAll(() => server.listen({ onUnhandledFrame: () => Promise.reject(Response.error()) }))
afterAll(() => server.close())

const headers = { authorization: 'Bearer sandbox-free-key', 'content-type': 'application/json' }
const create = (name: string) =>
  fetch('http://api.test/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) })
const list = async () => (await (await fetch('http://api.test/v1/pets?limit=100', { headers })).json()) as Pet[]

describe.concurrent('a sandbox per test inside server.boundary()', () => {
  for (const name of ['Alpha', 'Beta', 'Gamma']) {
    it(
      `sees only its own pets and quota (${name})`,
      server.boundary(async () => {
        const sandbox = createSandbox({ pets: 3 })
        server.use(...sandbox.handlers)
        expect((await create(name)).status).toBe(201)
        // Let the other tests interleave their requests before reading.
        await new Promise((resolve) => setTimeout(resolve, 20))
        expect((await list()).map((pet) => pet.name).slice(3)).toEqual([name])
        expect(sandbox.quota.get('sandbox-free-key').minute.used).toBe(2)
      }),
    )
  }
})

it('leaves no handler behind once a boundary ends', async () => {
  await expect(fetch('http://api.test/v1/pets', { headers })).rejects.toThrow()
})

it('keeps two sandboxes of one process apart: pets, quotas and clocks', async () => {
  const one = createSandbox({ pets: 2 })
  const two = createSandbox({ pets: 2 })
  await Promise.all([one.ready(), two.ready()])
  await one.pets.create({ name: 'Only in one', categoryId: 1 })
  one.quota.set('sandbox-free-key', { remaining: 0, banned: true })
  one.clock.advance(86_400_000)
  expect(two.pets.all()).toHaveLength(2)
  expect(two.quota.get('sandbox-free-key')).toMatchObject({ remaining: 60, banned: false })
  expect(Math.abs(two.clock.now() - Date.now())).toBeLessThan(60_000)
})
