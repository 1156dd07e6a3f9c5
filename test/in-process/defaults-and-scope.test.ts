import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { createContractChecker } from '../support/contract-checker.js'

// Two sandboxes side by side: one bound to a baseUrl, one without a default status.
const scoped = createSandbox({ baseUrl: 'http://staging.test/v1', pets: 3 })
const plain = createSandbox({ baseUrl: 'http://plain.test/api/v1', pets: 3, defaultStatus: null })
const server = setupServer(...scoped.handlers, ...plain.handlers)
const contract = createContractChecker()
server.events.on('response:mocked', ({ request, response }) =>
  contract.check(request.method, request.url.replace('/api/v1', '/v1'), response),
)
const auth = { authorization: 'Bearer sandbox-pro-key' }

beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterAll(() => server.close())

it('answers only its baseUrl origin', async () => {
  expect((await fetch('http://staging.test/v1/pets', { headers: auth })).status).toBe(200)
  const other = await fetch('http://127.0.0.1:9/v1/pets', { headers: auth }).then(
    () => 'answered',
    () => 'not answered',
  )
  expect(other).toBe('not answered')
})

it('serves a baseUrl with a longer path prefix', async () => {
  const response = await fetch('http://plain.test/api/v1/pets?limit=2', { headers: auth })
  expect(((await response.json()) as unknown[]).length).toBe(2)
})

it('stores no status when defaultStatus is null', async () => {
  const response = await fetch('http://plain.test/api/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{"name":"Nameless","categoryId":1}',
  })
  expect(await response.json()).toEqual({ id: 4, name: 'Nameless', categoryId: 1 })
})

it('refuses bad options when the sandbox is created', () => {
  expect(() => createSandbox({ pets: 100_001 })).toThrow('pets must be a whole number from 0 to 100000')
  expect(() => createSandbox({ baseUrl: 'not a url' })).toThrow('baseUrl must be an absolute URL')
  expect(() => createSandbox({ defaultStatus: 'adopted' as never })).toThrow('defaultStatus must be one of')
  expect(() => createSandbox({ keys: [{ key: 'k k', plan: 'free' }] })).toThrow('keys[0].key')
  expect(() => createSandbox({ banSeconds: 0 })).toThrow('banSeconds must be a positive number')
})
