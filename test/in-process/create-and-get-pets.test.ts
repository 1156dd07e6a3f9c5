import { expect, it } from 'vitest'
import { createExchangeChecker, parseJsonBody } from '../../src/node/verify/create-exchange-checker.js'
import { useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const { api, sandbox } = useInProcessSandbox({ pets: 10 })
const json = { 'content-type': 'application/json' }

it('creates a pet with 201 and the stored Pet, defaulting its status to available', async () => {
  const response = await api('/pets', { method: 'POST', headers: json, body: '{"name":"  Pickle  ","categoryId":3}' })
  expect(response.status).toBe(201)
  expect(await response.json()).toEqual({ id: 11, name: 'Pickle', categoryId: 3, status: 'available' })
  expect(sandbox.pets.get(11)).toEqual({ id: 11, name: 'Pickle', categoryId: 3, status: 'available' })
})

it('ignores a client-sent id and unknown fields', async () => {
  const response = await api('/pets', {
    method: 'POST',
    headers: json,
    body: '{"id":1,"name":"Rex","categoryId":2,"owner":"me","__proto__":{"admin":true}}',
  })
  expect(await response.json()).toEqual({ id: 11, name: 'Rex', categoryId: 2, status: 'available' })
  expect(sandbox.pets.get(1)?.name).not.toBe('Rex')
})

it('gets a pet by id and answers 404 for an unknown one', async () => {
  const found = await api('/pets/4')
  expect(await found.json()).toEqual(sandbox.pets.get(4))
  const missing = await api('/pets/11')
  expect(missing.status).toBe(404)
  expect(await missing.json()).toEqual({ code: 'not_found', message: 'pet 11 does not exist', status: 404 })
})

it('answers 404 for every int64 that names no pet and 400 for what is no int64 (D37), as verify and the proxy judge them', async () => {
  const checker = createExchangeChecker('/v1')
  const cases: Array<[string, number]> = [
    ['0', 404],
    ['-1', 404],
    ['9007199254740992', 404],
    ['9007199254740993', 404],
    ['9223372036854775807', 404],
    ['-9223372036854775808', 404],
    ['abc', 400],
    ['1.5', 400],
    ['9223372036854775808', 400],
  ]
  for (const [petId, status] of cases) {
    const response = await api(`/pets/${petId}`)
    expect(response.status, petId).toBe(status)
    const bodyText = await response.text()
    const body = parseJsonBody(bodyText) as { code: string; message: string }
    expect(body.code).toBe(status === 404 ? 'not_found' : 'invalid_request')
    // The checks verify makes of a backend's answers, and the proxy of the upstream's, find nothing to say.
    const violations = await checker.check({
      method: 'GET',
      url: `http://api.test/v1/pets/${petId}`,
      path: `/pets/${petId}`,
      query: new URLSearchParams(),
      credential: 'key',
      status,
      headers: Object.fromEntries(response.headers),
      bodyText,
      body,
      receivedAt: sandbox.clock.now(),
    })
    expect(violations.map(({ promise, expected }) => `${petId}: ${promise}: ${expected}`)).toEqual([])
  }
})

it('restores the seeded pets on reset, and ids start over', async () => {
  const seeded = sandbox.pets.all()
  await api('/pets', { method: 'POST', headers: json, body: '{"name":"Temp","categoryId":1}' })
  expect(sandbox.pets.all()).toHaveLength(11)
  await sandbox.reset()
  expect(sandbox.pets.all()).toEqual(seeded)
  const again = await api('/pets', { method: 'POST', headers: json, body: '{"name":"Next","categoryId":1}' })
  expect(((await again.json()) as { id: number }).id).toBe(11)
})

it('changes nothing when a create is refused', async () => {
  const before = sandbox.pets.all()
  for (const body of [
    '{"name":"","categoryId":1}',
    '{"name":"Rex","categoryId":"1"}',
    '{"name":"Rex","categoryId":9007199254740992}',
    'nope',
  ]) {
    const response = await api('/pets', { method: 'POST', headers: json, body })
    expect(response.status).toBe(400)
  }
  expect(sandbox.pets.all()).toEqual(before)
  const next = await api('/pets', { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' })
  expect(((await next.json()) as { id: number }).id).toBe(11)
})

it('assigns unique ascending ids to concurrent creates', async () => {
  const responses = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      api('/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: `Pet ${i}`, categoryId: 1 }) }),
    ),
  )
  const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as { id: number }).id))
  expect(new Set(ids).size).toBe(25)
  expect(sandbox.pets.all().map((pet) => pet.id)).toEqual(Array.from({ length: 35 }, (_, i) => i + 1))
})

it('arranges pets without HTTP', async () => {
  const pet = await sandbox.pets.create({ name: 'Arranged', categoryId: 9, status: 'sold' })
  const listed = (await (await api('/pets?status=sold&limit=100')).json()) as Array<{ id: number }>
  expect(listed.at(-1)).toEqual(pet)
})
