// The small suite every in-process consumer runs, whatever its runner (vitest or Jest, both of which
// provide these globals) and however its client reaches the sandbox.
import { contractViolations } from './contract.js'

export const STAGING = 'https://staging.animal-store.example/v1'
export const SEEDED_PETS = 30

/**
 * @param {import('petstore-sandbox').Sandbox} sandbox created with `pets: SEEDED_PETS`
 * @param {(apiKey: string) => ReturnType<typeof import('./pets-client.js').createPetsClient>} clientFor
 */
export function definePetsSuite(sandbox, clientFor) {
  const pets = () => clientFor('sandbox-free-key')

  beforeEach(() => sandbox.reset({ clock: true }))
  // A response that broke the contract has already failed its test; this keeps it out of the next one.
  afterEach(() => {
    contractViolations.length = 0
  })

  it('lists the seeded pets: the first 20 by default, and filtered by status', async () => {
    const all = sandbox.pets.all()

    const first = await pets().listPets()
    const sold = await pets().listPets({ status: 'sold', limit: 100 })

    expect(first.status).toBe(200)
    expect(first.body).toEqual(all.slice(0, 20))
    expect(sold.body.length).toBeGreaterThan(0)
    expect(sold.body).toEqual(all.filter((pet) => pet.status === 'sold'))
  })

  it('creates a pet, then gets it with the Deprecation, Sunset and Link of getPet', async () => {
    const created = await pets().createPet({ name: 'Biscuit', categoryId: 2, status: 'pending' })
    const got = await pets().getPet(created.body.id)

    expect(created.status).toBe(201)
    expect(created.body).toEqual({ id: SEEDED_PETS + 1, name: 'Biscuit', categoryId: 2, status: 'pending' })
    expect(got.status).toBe(200)
    expect(got.body).toEqual(created.body)
    expect(got.headers.get('deprecation')).toBe(`@${Date.parse('2025-12-05T00:00:00Z') / 1000}`)
    expect(got.headers.get('sunset')).toBe(new Date('2030-12-05T00:00:00Z').toUTCString())
    expect(got.headers.get('link')).toBe('</v1/pets>; rel="successor-version"')
  })

  it('answers an unknown key with a 401 Error body', async () => {
    const result = await clientFor('not-a-real-key').listPets()

    expect(result.status).toBe(401)
    expect(result.body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 })
  })

  it('answers a limit out of range with a 400 Error body', async () => {
    const result = await pets().listPets({ limit: 0 })

    expect(result.status).toBe(400)
    expect(result.body).toEqual({ code: 'invalid_request', message: 'limit must be between 1 and 100', status: 400 })
  })

  it('answers 429 from the minute window once quota.set leaves nothing', async () => {
    sandbox.quota.set('sandbox-free-key', { remaining: 0 })

    const result = await pets().listPets()

    expect(result.status).toBe(429)
    expect(result.body).toEqual({ code: 'rate_limited', message: expect.any(String), status: 429 })
    expect(result.headers.get('x-ratelimit-limit')).toBe('60')
    expect(result.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(result.headers.get('retry-after'))).toBeLessThanOrEqual(60)
  })

  it('starts afresh after reset(): created pets gone, the quota full again', async () => {
    await pets().createPet({ name: 'Leftover', categoryId: 1 })
    sandbox.quota.set('sandbox-free-key', { remaining: 0 })

    await sandbox.reset()
    const result = await pets().listPets({ limit: 100 })

    expect(result.status).toBe(200)
    expect(result.body).toHaveLength(SEEDED_PETS)
    expect(result.body.map((pet) => pet.name)).not.toContain('Leftover')
    expect(result.headers.get('x-ratelimit-remaining')).toBe(String(60 - 1))
  })

  it('answers 410 gone from getPet once the clock reaches the sunset, and 200 after reset({ clock: true })', async () => {
    sandbox.clock.set('2030-12-05T00:00:00Z')
    const gone = await pets().getPet(1)

    await sandbox.reset({ clock: true })
    const back = await pets().getPet(1)

    expect(gone.status).toBe(410)
    expect(gone.body).toEqual({ code: 'gone', message: expect.any(String), status: 410 })
    expect(Math.abs(sandbox.clock.now() - Date.now())).toBeLessThan(5_000)
    expect(back.status).toBe(200)
  })
}
