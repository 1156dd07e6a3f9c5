import { beforeEach, expect, it } from 'vitest'
import { useRedisReplicas } from '../support/use-redis-replicas.js'

// --max-pets on replicas sharing one Redis bounds the pets of the whole sandbox, checked in the
// script that creates a pet, so creates racing on both replicas never pass it (docs/decisions.md#d23).
const { call, admin } = useRedisReplicas(2, ['--pets', '5', '--max-pets', '12'])
const FULL = {
  code: 'storage_full',
  message: 'The sandbox stores at most 12 pets and is full; nothing was stored',
  status: 507,
}
const create = (replica: number, name: string) =>
  call(replica, '/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

beforeEach(async () => {
  expect((await admin(0, '/reset', { method: 'POST' })).status).toBe(200)
})

it('stores exactly --max-pets over a concurrent burst on both replicas; the rest get 507 storage_full and store nothing', async () => {
  const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i % 2, `Burst ${i}`)))
  const created = responses.filter((response) => response.status === 201)
  const refused = responses.filter((response) => response.status === 507)
  expect(created).toHaveLength(7)
  expect(refused).toHaveLength(33)
  for (const response of refused) expect(await response.json()).toEqual(FULL)
  const ids = (await Promise.all(created.map((response) => response.json())))
    .map((pet: { id: number }) => pet.id)
    .sort((a, b) => a - b)
  expect(ids).toEqual([6, 7, 8, 9, 10, 11, 12])
  for (const replica of [0, 1]) {
    expect((await (await admin(replica, '/state')).json()).pets).toEqual({ count: 12, nextId: 13 })
    const listed = (await (await call(replica, '/pets?limit=100')).json()) as Array<{ name: string }>
    expect(listed).toHaveLength(12)
  }
})

it('spends quota on a refused create, as on any answered request, and frees room after a reset', async () => {
  for (let i = 0; i < 7; i++) expect((await create(i % 2, `Filler ${i}`)).status).toBe(201)
  const first = await create(0, 'Over')
  const second = await create(1, 'Over again')
  expect([first.status, second.status]).toEqual([507, 507])
  expect(await first.json()).toEqual(FULL)
  // One quota over both replicas: the second refusal counts one more than the first.
  expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
    Number(first.headers.get('x-ratelimit-remaining')) - 1,
  )

  expect((await admin(1, '/reset', { method: 'POST' })).status).toBe(200)
  const after = await create(0, 'After the reset')
  expect(after.status).toBe(201)
  expect((await after.json()).id).toBe(6)
})
