// @vitest-environment happy-dom
import nodeConsole from 'node:console'
import { expect, it, vi } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

// happy-dom's fetch enforces CORS like a browser: its page origin (http://localhost:3000) makes
// every request to the API cross-origin, preflighted without an Origin header.
const { api } = useInProcessSandbox()

it('answers a cross-origin list under happy-dom', async () => {
  const response = await api('/pets?limit=2')
  expect(response.status).toBe(200)
  const pets = (await response.json()) as Array<{ id: number }>
  expect(pets.map((pet) => pet.id)).toEqual([1, 2])
})

it('answers a cross-origin create with its Error body or pet under happy-dom', async () => {
  // happy-dom prints a refused fetch as a browser's console does, to the process's own console
  // (node:console), past vitest's capture: heard here, so that a passing run prints nothing on stderr.
  const printed = vi.spyOn(nodeConsole, 'error').mockImplementation(() => undefined)
  const refused = await api('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  const calls = [...printed.mock.calls]
  printed.mockRestore()
  expect(calls).toEqual([['POST http://api.test/v1/pets 400 (Bad Request)']])
  expect(refused.status).toBe(400)
  expect(await refused.json()).toMatchObject({ code: 'invalid_request', status: 400 })
  const created = await api('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  expect(await created.json()).toMatchObject({ name: 'Rex', categoryId: 1 })
})
