// How a frontend tests its API client against petstore-sandbox, in-process: msw's setupServer
// serves the sandbox's handlers, so the client's real fetch calls get the staging API's answers,
// with no server to start. One sandbox for this file; `reset()` gives every test a fresh one.
import { setupServer } from 'msw/node'
import { createSandbox } from 'petstore-sandbox'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createContractChecker } from '../../test/support/contract-checker.js'
import { createPetsClient } from './pets-client.js'

const STAGING = 'https://staging.animal-store.example/v1'

const sandbox = createSandbox({ seed: 7, pets: 20 })
const server = setupServer(...sandbox.handlers)
const pets = createPetsClient({ baseUrl: STAGING, apiKey: 'sandbox-free-key' })

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(() => sandbox.reset()) // the seeded pets back, quotas and bans cleared
afterAll(() => server.close())

// This repository holds every response to fixtures/openapi.yaml; your project does not need this.
const contract = createContractChecker()
server.events.on('response:mocked', ({ request, response }) => contract.check(request.method, request.url, response))

it('lists the seeded pets with a status filter', async () => {
  const result = await pets.listPets({ status: 'sold', limit: 100 })

  expect(result.ok).toBe(true)
  if (!result.ok) return
  expect(result.data.length).toBeGreaterThan(0)
  expect(result.data.every((pet) => pet.status === 'sold')).toBe(true)
  // The sandbox can say what it holds, so the test needs no hard-coded fixture.
  expect(result.data).toEqual(sandbox.pets.all().filter((pet) => pet.status === 'sold'))
})

it('creates a pet, which the next list shows', async () => {
  const created = await pets.createPet({ name: 'Biscuit', categoryId: 2, status: 'pending' })

  expect(created).toMatchObject({ ok: true, data: { id: 21, name: 'Biscuit', categoryId: 2, status: 'pending' } })
  const pending = await pets.listPets({ status: 'pending', limit: 100 })
  expect(pending.ok && pending.data.at(-1)?.name).toBe('Biscuit')
})

it('shows a pet arranged by the test, without going through the API', async () => {
  await sandbox.pets.put({ id: 3, name: 'Arranged', categoryId: 5, status: 'available' })

  const result = await pets.getPet(3)

  expect(result).toMatchObject({ ok: true, data: { id: 3, name: 'Arranged' } })
})

it('passes the API error through for an unknown pet', async () => {
  const result = await pets.getPet(999)

  expect(result).toMatchObject({ ok: false, error: { code: 'not_found', status: 404 } })
})

it('reports an unknown API key as 401 unauthorized', async () => {
  const stranger = createPetsClient({ baseUrl: STAGING, apiKey: 'not-a-real-key' })

  const result = await stranger.listPets()

  expect(result).toMatchObject({ ok: false, error: { code: 'unauthorized', status: 401 } })
})

it('reads the remaining quota from every response', async () => {
  const first = await pets.listPets()
  const second = await pets.listPets()

  expect(first.rateLimit).toMatchObject({ limit: 60, remaining: 59 })
  expect(second.rateLimit.remaining).toBe(58)
})

it('gets a 429 with Retry-After once the quota is spent, without sending 60 requests', async () => {
  sandbox.quota.set('sandbox-free-key', { remaining: 0 })

  const result = await pets.listPets()

  expect(result).toMatchObject({ ok: false, error: { code: 'rate_limited', status: 429 }, rateLimit: { remaining: 0 } })
  expect(result.rateLimit.retryAfterSeconds).toBeGreaterThanOrEqual(1)
  expect(result.rateLimit.resetsAt.getTime()).toBe(sandbox.quota.get('sandbox-free-key').reset * 1000)
})

it('sees the deprecation and sunset of getPet, and its successor', async () => {
  const result = await pets.getPet(1)

  expect(result.deprecation).toEqual({
    since: new Date('2025-12-05T00:00:00Z'),
    sunset: new Date('2030-12-05T00:00:00Z'),
    successor: '/v1/pets',
  })
  // Only the deprecated operation carries these headers.
  expect((await pets.listPets()).deprecation).toBeUndefined()
})

it('gets 410 gone from getPet once the sandbox clock passes the sunset', async () => {
  sandbox.clock.set('2030-12-05T00:00:00Z')
  try {
    expect(await pets.getPet(1)).toMatchObject({ ok: false, error: { code: 'gone', status: 410 } })
  } finally {
    sandbox.clock.set(Date.now()) // reset() keeps the clock: put it back for the next tests
  }
})

it('starts each test afresh: no pet or spent quota of an earlier test remains', async () => {
  await pets.createPet({ name: 'Leftover', categoryId: 1 })
  sandbox.quota.set('sandbox-free-key', { remaining: 0 })
  await sandbox.reset()

  const result = await pets.listPets({ limit: 100 })

  expect(result).toMatchObject({ ok: true, rateLimit: { remaining: 59 } })
  expect(result.ok && result.data.map((pet) => pet.name)).not.toContain('Leftover')
  expect(result.ok && result.data).toHaveLength(20)
})
