import { expect, it } from 'vitest'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { api, sandbox } = useInProcessSandbox({ seed: 3, pets: 150 })

it('returns the first 20 pets in ascending id order by default', async () => {
  const response = await api('/pets')
  expect(response.status).toBe(200)
  const pets = (await response.json()) as Array<{ id: number }>
  expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
})

it('returns at most limit pets, up to 100', async () => {
  expect(await (await api('/pets?limit=1')).json()).toHaveLength(1)
  expect(await (await api('/pets?limit=100')).json()).toHaveLength(100)
})

it('filters by status and keeps ascending ids', async () => {
  const response = await api('/pets?status=sold&limit=100')
  const pets = (await response.json()) as Array<{ id: number; status: string }>
  const expected = sandbox.pets
    .all()
    .filter((pet) => pet.status === 'sold')
    .slice(0, 100)
  expect(pets).toEqual(expected)
  expect(pets.length).toBeGreaterThan(0)
  expect(pets.every((pet) => pet.status === 'sold')).toBe(true)
})

it.each([
  ['limit=0', 'limit must be between 1 and 100'],
  ['limit=101', 'limit must be between 1 and 100'],
  ['limit=abc', 'limit must be an integer'],
  ['limit=2.5', 'limit must be an integer'],
  ['status=adopted', 'status must be one of available, pending, sold'],
])('refuses %s with 400 naming the parameter', async (query, message) => {
  const response = await api(`/pets?${query}`)
  expect(response.status).toBe(400)
  expect(await response.json()).toEqual({ code: 'invalid_request', message, status: 400 })
})

it('answers HEAD like GET without a body', async () => {
  const response = await api('/pets', { method: 'HEAD' })
  expect(response.status).toBe(200)
  expect(await response.text()).toBe('')
  expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull()
})

it('reads percent-encoded and plain query strings alike, and ignores unknown parameters of any name', async () => {
  const plain = await (await api('/pets?status=sold&limit=3')).json()
  expect(plain).toHaveLength(3)
  // `%` sends the query through URLSearchParams, a plain one is split by hand: the same answer.
  expect(await (await api('/pets?st%61tus=s%6Fld&limit=%33')).json()).toEqual(plain)
  // Names of Object.prototype's properties are parameters like any other, unknown ones ignored.
  expect(await (await api('/pets?constructor=1&__proto__=x&__proto__=y&toString=&status=sold&limit=3')).json()).toEqual(
    plain,
  )
  // A repeated limit is refused, whichever way it is spelled.
  expect((await api('/pets?limit=3&limit=4')).status).toBe(400)
  expect((await api('/pets?limit=3&l%69mit=4')).status).toBe(400)
})

it('answers a page as the JSON text of its pets, and a pet replaced after a listing as replaced', async () => {
  // The store keeps each listed record's text (create-pet-store.ts): the bytes are JSON.stringify's.
  expect(await (await api('/pets?limit=5')).text()).toBe(JSON.stringify(sandbox.pets.all().slice(0, 5)))
  await sandbox.pets.put({ id: 2, name: 'Replaced', categoryId: 7 })
  const text = await (await api('/pets?limit=5')).text()
  expect(text).toBe(JSON.stringify(sandbox.pets.all().slice(0, 5)))
  expect((JSON.parse(text) as unknown[])[1]).toEqual({ id: 2, name: 'Replaced', categoryId: 7 })
})

it('hands out copies of the stored pets: an edit of one reaches neither the answers nor the store', async () => {
  const listed = (await (await api('/pets?limit=3')).json()) as Array<{ id: number; name: string }>
  const handed = sandbox.pets.get(2)!
  handed.name = 'Edited in place'
  sandbox.pets.all()[0]!.name = 'Edited too'
  const created = await sandbox.pets.create({ name: 'Fresh', categoryId: 1 })
  created.name = 'Edited after create'

  expect(await (await api('/pets?limit=3')).json()).toEqual(listed)
  expect(await (await api('/pets/2')).json()).toEqual(listed[1])
  expect(sandbox.pets.get(2)).toEqual(listed[1])
  expect(sandbox.pets.get(created.id)?.name).toBe('Fresh')
})

it('lists the pets created after a page was first served, and none once reset, byte for byte', async () => {
  // A base's pages are serialized once (create-pet-base.ts); a world's own pets follow them.
  const soldPage = () =>
    JSON.stringify(
      sandbox.pets
        .all()
        .filter((pet) => pet.status === 'sold')
        .slice(0, 100),
    )
  const before = await (await api('/pets?status=sold&limit=100')).text()
  expect(before).toBe(soldPage())
  const soldBefore = (JSON.parse(before) as unknown[]).length
  expect(soldBefore).toBeLessThan(100)
  const created = await sandbox.pets.create({ name: 'Sold later', categoryId: 2, status: 'sold' })
  await sandbox.pets.create({ name: 'Still available', categoryId: 2, status: 'available' })
  const after = await (await api('/pets?status=sold&limit=100')).text()
  expect(after).toBe(soldPage())
  expect((JSON.parse(after) as Array<{ id: number }>).map((pet) => pet.id).slice(soldBefore)).toEqual([created.id])
  await sandbox.reset()
  expect(await (await api('/pets?status=sold&limit=100')).text()).toBe(before)
})
