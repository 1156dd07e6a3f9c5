import { expect, it } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { api, sandbox } = useInProcessSandbox({ pets: 3 })
const create = (body: string) => api('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body })

it('stores a pet whose body carries a __proto__ key as a plain pet, and pollutes no prototype', async () => {
  const response = await create(
    '{"name":"Rex","categoryId":1,"__proto__":{"status":"sold","polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  )
  expect(response.status).toBe(201)
  const pet = (await response.json()) as Record<string, unknown>
  expect(pet).toEqual({ id: 4, name: 'Rex', categoryId: 1, status: 'available' })
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(sandbox.pets.get(4)).toEqual(pet)
})

it('ignores an extra field nested 100000 levels deep (D7) without overflowing the stack', async () => {
  const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`
  const response = await create(`{"name":"Deep","categoryId":2,"extra":${deep}}`)
  expect(response.status).toBe(201)
  expect(await response.json()).toEqual({ id: 4, name: 'Deep', categoryId: 2, status: 'available' })
})

it('refuses a name nested 100000 levels deep with 400 and stores nothing', async () => {
  const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`
  const response = await create(`{"name":${deep},"categoryId":2}`)
  expect(response.status).toBe(400)
  expect(sandbox.pets.all()).toHaveLength(3)
})
