import { expect, it } from 'vitest'
import { createSandbox, ConfigError } from '../../src/index.js'
import { contractViolations } from '../support/contract.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const { call } = useCliSandbox(['--pets', '2', '--max-pets', '4'])

const create = (name: string) =>
  call('/pets', {
    method: 'POST',
    key: 'sandbox-pro-key',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

it('answers a create beyond --max-pets with 507 storage_full naming the limit, stores nothing and spends quota', async () => {
  expect((await create('Third')).status).toBe(201)
  expect((await create('Fourth')).status).toBe(201)
  const first = await create('Fifth')
  expect(first.status).toBe(507)
  expect(await first.json()).toEqual({
    code: 'storage_full',
    message: 'The sandbox stores at most 4 pets and is full; nothing was stored',
    status: 507,
  })
  const second = await create('Sixth')
  expect(second.status).toBe(507)
  // Spent like any answered request: the quota headers count both refusals.
  expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
    Number(first.headers.get('x-ratelimit-remaining')) - 1,
  )
  const pets = (await (await call('/pets?limit=100')).json()) as Array<{ name: string }>
  expect(pets.map((pet) => pet.name)).not.toContain('Fifth')
  expect(pets).toHaveLength(4)
  // Reads still work at the limit.
  expect((await call('/pets/4')).status).toBe(200)
})

it('holds the limit under a concurrent burst: never more than maxPets stored', async () => {
  const sandbox = createSandbox({ pets: 0, maxPets: 10 })
  const auth = {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-enterprise-key', 'content-type': 'application/json' },
    body: '{"name":"Burst","categoryId":1}',
  }
  const responses = await Promise.all(Array.from({ length: 50 }, () => sandbox.fetch('http://api.test/v1/pets', auth)))
  for (const response of responses)
    expect(await contractViolations('POST', 'http://api.test/v1/pets', response.clone())).toEqual([])
  const statuses = responses.map((response) => response.status)
  expect(statuses.filter((status) => status === 201)).toHaveLength(10)
  expect(statuses.filter((status) => status === 507)).toHaveLength(40)
  expect(sandbox.pets.all()).toHaveLength(10)
})

it('checks maxPets when the sandbox is created, and --max-pets when the CLI starts', () => {
  expect(() => createSandbox({ pets: 10, maxPets: 5 })).toThrow(ConfigError)
  expect(() => createSandbox({ maxPets: 1.5 })).toThrow(
    'maxPets must be a whole number no smaller than pets (50), got 1.5',
  )
})
