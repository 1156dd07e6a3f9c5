import { expect, it } from 'vitest'
import { ConfigError, createSandbox } from '../../src/index.js'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { api, sandbox } = useInProcessSandbox({
  pets: [
    { name: 'Biscuit', categoryId: 2, status: 'sold' },
    { id: 7, name: 'Pixel', categoryId: 5 },
    { name: 'Mango', categoryId: 1, status: 'pending' },
  ],
})

it('serves the given pets instead of generated ones, numbered in the order given, and restores them on reset', async () => {
  const expected = [
    { id: 1, name: 'Biscuit', categoryId: 2, status: 'sold' },
    { id: 7, name: 'Pixel', categoryId: 5 },
    { id: 8, name: 'Mango', categoryId: 1, status: 'pending' },
  ]
  expect(await (await api('/pets')).json()).toEqual(expected)
  const created = await api('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Newcomer', categoryId: 3 }),
  })
  expect((await created.json()).id).toBe(9)
  await sandbox.reset()
  expect(await (await api('/pets')).json()).toEqual(expected)
  expect((await sandbox.state()).pets).toEqual({ count: 3, nextId: 9 })
})

it('refuses a bad given pet when the sandbox is created, naming its index and field', () => {
  expect(() =>
    createSandbox({
      pets: [
        { name: 'Ace', categoryId: 1 },
        { name: 'Bo', categoryId: 0 },
      ],
    }),
  ).toThrow(new ConfigError('pets [1].categoryId: must be an integer ≥ 1'))
  expect(() => createSandbox({ pets: [{ name: '', categoryId: 1.5 }] as never })).toThrow(
    new ConfigError(
      'pets [0].name: must be a string of 1 to 200 characters, not blank; [0].categoryId: must be an integer ≥ 1',
    ),
  )
})
