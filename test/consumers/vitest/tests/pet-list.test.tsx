// The component test frontend teams write: React Testing Library under jsdom, the component's
// fetch answered by the sandbox, through msw or through sandbox.fetch.
import { render, screen, within } from '@testing-library/react'
import { setupServer } from 'msw/node'
import { createSandbox } from 'petstore-sandbox'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { contractCheckedFetch, contractViolations } from '../suite/contract.js'
import { PetList } from '../src/PetList.js'

const STAGING = 'https://staging.animal-store.example/v1'
const sandbox = createSandbox({ seed: 11, pets: 12 })
const server = setupServer(...sandbox.handlers)

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(() => sandbox.reset({ clock: true }))
// The component swallows a failed fetch into its message, so broken responses are asserted here.
afterEach(() => {
  expect(contractViolations.splice(0)).toEqual([])
})
afterAll(() => server.close())

const throughMsw = contractCheckedFetch((input, init) => fetch(input, init))

async function listedNames() {
  const list = await screen.findByRole('list', { name: 'Pets' })
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent)
}

function expectedNames() {
  return sandbox.pets
    .all()
    .slice(0, 5)
    .map((pet) => `${pet.name} (${pet.status ?? 'no status'})`)
}

it('lists the first pets, fetched with the global fetch that msw answers', async () => {
  render(<PetList baseUrl={STAGING} apiKey="sandbox-free-key" fetch={throughMsw} />)

  expect(await listedNames()).toEqual(expectedNames())
})

it('lists the first pets, fetched with sandbox.fetch', async () => {
  render(<PetList baseUrl={STAGING} apiKey="sandbox-free-key" fetch={contractCheckedFetch(sandbox.fetch)} />)

  expect(await listedNames()).toEqual(expectedNames())
})

it('shows a pet arranged by the test', async () => {
  await sandbox.pets.put({ id: 2, name: 'Arranged', categoryId: 3, status: 'sold' })

  render(<PetList baseUrl={STAGING} apiKey="sandbox-free-key" fetch={throughMsw} />)

  expect(await listedNames()).toContain('Arranged (sold)')
})

it("shows the API's message when the quota is spent", async () => {
  sandbox.quota.set('sandbox-free-key', { remaining: 0 })

  render(<PetList baseUrl={STAGING} apiKey="sandbox-free-key" fetch={throughMsw} />)

  expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringMatching(/\(rate_limited\)$/))
})

it("shows the API's message for an unknown key", async () => {
  render(<PetList baseUrl={STAGING} apiKey="not-a-real-key" fetch={throughMsw} />)

  expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringMatching(/\(unauthorized\)$/))
})
