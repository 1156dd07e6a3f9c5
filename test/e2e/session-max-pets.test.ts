import { expect, it } from 'vitest'
import { createAdminCaller, createAdminContractChecker } from '../support/admin-contract.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

// Sessions made from a capsule, a recording or a fork count their pets against --max-pets (D23), over real HTTP in memory.
const TOKEN = 'admin-token-for-session-max-pets'
const { call, url } = useCliSandbox(['--admin-token', TOKEN, '--pets', '2', '--max-pets', '20'])
const admin = createAdminCaller(() => url().replace(/\/v1$/, ''), TOKEN, createAdminContractChecker())

const put = (name: string, json: unknown) => admin(`/sessions/${name}`, { method: 'PUT', json })
const create = (session: string, name: string) =>
  call('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-session': session },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

/** The default session's capsule with `count` pets of its own, ids 1 to `count`. */
async function capsuleOf(count: number): Promise<Record<string, unknown>> {
  const capsule = (await (await admin('/sessions/default/capsule')).json()) as { pets: Array<Record<string, unknown>> }
  const template = capsule.pets[0]!
  return { ...capsule, pets: Array.from({ length: count }, (_, index) => ({ ...template, id: index + 1, name: `Capsuled ${index + 1}` })), nextId: count + 1 }
}

async function expectTooLarge(response: Response, adds: number): Promise<void> {
  expect(response.status).toBe(507)
  expect(await response.json()).toEqual({
    code: 'storage_full',
    status: 507,
    message: `The sandbox stores at most 20 pets and this session's ${adds} more would pass it; nothing was changed`,
  })
}

it('refuses a capsule whose pets would pass --max-pets, changing nothing, and takes one that fits, again in its own place', async () => {
  await expectTooLarge(await put('big', { capsule: await capsuleOf(30) }), 30)
  expect((await admin('/sessions/big')).status).toBe(404)
  // The default session is refused alike and keeps its world.
  await expectTooLarge(await put('default', { capsule: await capsuleOf(30) }), 30)
  expect(((await (await admin('/sessions/default')).json()) as { pets: { count: number } }).pets.count).toBe(2)

  const ten = await capsuleOf(10)
  expect((await put('ten', { capsule: ten })).status).toBe(200)
  // Replacing it gives its pets back first: the same capsule fits in its place.
  expect((await put('ten', { capsule: ten })).status).toBe(200)
  expect((await put('eleven', { capsule: ten })).status).toBe(507)
  // 2 start-up pets and 10 of the capsule: 8 more creates fit, the 9th does not.
  for (let index = 0; index < 8; index++) expect((await create('ten', `Extra ${index}`)).status).toBe(201)
  expect((await create('default', 'One too many')).status).toBe(507)
  expect((await admin('/sessions/ten', { method: 'DELETE' })).status).toBe(200)
})

it('refuses a fork or a recording whose pets would pass --max-pets, changing nothing', async () => {
  for (let index = 0; index < 7; index++) expect((await create('a', `Own ${index}`)).status).toBe(201)
  // 2 start-up pets and a's 7: a fork of a shares the start-up pets and adds its 7.
  expect((await put('b', { from: 'a' })).status).toBe(200)
  await expectTooLarge(await put('c', { from: 'a' }), 7)
  expect((await admin('/sessions/c')).status).toBe(404)
  expect((await put('b', { from: 'a' })).status).toBe(200)

  // A recording of a's listing holds its 9 pets, in a world of their own.
  expect((await call('/pets?limit=100', { headers: { 'x-sandbox-session': 'a' } })).status).toBe(200)
  const har = await (await admin('/requests.har?session=a')).json()
  await expectTooLarge(await put('d', { har }), 9)
  expect((await admin('/sessions/d')).status).toBe(404)
  // 16 pets held (2 start-up, a's 7, b's 7): four more creates fit, anywhere.
  for (const session of ['default', 'a', 'b', 'fresh']) expect((await create(session, `Into ${session}`)).status).toBe(201)
  expect((await create('a', 'One too many')).status).toBe(507)
})
