import { afterEach, expect, it } from 'vitest'
import createClient from 'openapi-fetch'
import { createSandbox, type ApiError, type paths } from '../../src/index.js'
import { contractViolations } from '../support/contract.js'

// No msw server is listening in this file: every answer comes from sandbox.fetch alone.
const sandbox = createSandbox({ pets: 5, adminToken: 'admin-secret' })
const seen: Array<Promise<string[]>> = []
const checkedFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  const response = await sandbox.fetch(request.clone())
  seen.push(contractViolations(request.method, request.url, response.clone()))
  return response
}
const auth = { authorization: 'Bearer sandbox-free-key' }

afterEach(async () => {
  expect((await Promise.all(seen.splice(0))).flat()).toEqual([])
  await sandbox.reset({ clock: true })
})

it('answers a client built around it, with no msw server listening', async () => {
  const client = createClient<paths>({ baseUrl: 'http://api.test/v1', fetch: checkedFetch })
  const { data, response } = await client.GET('/pets', { params: { query: { limit: 2 } }, headers: auth })
  expect(response.status).toBe(200)
  expect(data?.map((pet) => pet.id)).toEqual([1, 2])
  const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 }, headers: auth })
  expect(created.response.status).toBe(201)
  expect(sandbox.pets.get(created.data!.id)).toEqual(created.data)
})

it('answers refusals with Error bodies', async () => {
  const response = await checkedFetch('http://api.test/v1/pets')
  expect(response.status).toBe(401)
  expect(((await response.json()) as ApiError).code).toBe('unauthorized')
})

it('rejects a request outside the API instead of sending it to the network', async () => {
  await expect(sandbox.fetch('https://example.com/')).rejects.toThrow(
    /outside the sandbox's API.*sends nothing to the network/,
  )
  await expect(sandbox.fetch('/v1/pets')).rejects.toThrow('needs an absolute URL')
})

it('serves the admin API when the sandbox has a token', async () => {
  sandbox.quota.set('sandbox-free-key', { remaining: 0 })
  expect((await checkedFetch('http://api.test/v1/pets', { headers: auth })).status).toBe(429)
  const reset = await sandbox.fetch('http://api.test/__sandbox/reset?clock=true', {
    method: 'POST',
    headers: { authorization: 'Bearer admin-secret' },
  })
  expect(reset.status).toBe(200)
  expect((await checkedFetch('http://api.test/v1/pets', { headers: auth })).status).toBe(200)
})

it('resolves relative URLs against baseUrl', async () => {
  const based = createSandbox({ pets: 1, baseUrl: 'http://localhost:4010/v1' })
  const response = await based.fetch('/v1/pets', { headers: auth })
  expect(response.status).toBe(200)
  seen.push(contractViolations('GET', 'http://localhost:4010/v1/pets', response))
})

it('rejects an aborted request as fetch does', async () => {
  const controller = new AbortController()
  controller.abort(new DOMException('stopped', 'AbortError'))
  await expect(sandbox.fetch('http://api.test/v1/pets', { headers: auth, signal: controller.signal })).rejects.toThrow(
    'stopped',
  )
})

it('rejects an injected dropped connection as a network error', async () => {
  sandbox.faults.set({ errorRate: 1, kinds: ['drop'] })
  await expect(sandbox.fetch('http://api.test/v1/pets', { headers: auth })).rejects.toThrow(TypeError)
  sandbox.faults.set({})
})
