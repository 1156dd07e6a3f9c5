import { Window } from 'happy-dom'
import { afterAll, afterEach, expect, it, vi } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { contractViolations } from '../support/contract.js'

// Under Nuxt's test environment the global Request is happy-dom's while clients build Node's
// Headers, and the other way round elsewhere: sandbox.fetch reads either realm's parts.
const window = new Window({ url: 'http://localhost:3000' })
const sandbox = createSandbox({ pets: 3 })
const url = 'http://api.test/v1/pets?limit=2'

afterEach(() => vi.unstubAllGlobals())
afterAll(() => window.happyDOM.close())

async function checked(response: Response): Promise<Response> {
  // The answer may be of happy-dom's realm: read through a Response of this one for the checker.
  const copy = new Response(await response.clone().text(), { status: response.status, headers: [...response.headers] })
  expect(await contractViolations('GET', url, copy)).toEqual([])
  return response
}

it("keeps the key of Node's Headers where the global Request is happy-dom's, which drops them", async () => {
  const nodeHeaders = new Headers({ authorization: 'Bearer sandbox-free-key', 'x-sandbox-session': 'realm-a' })
  expect(new window.Request(url, { headers: nodeHeaders as never }).headers.get('authorization')).toBeNull()
  vi.stubGlobal('Request', window.Request)
  const response = await checked(await sandbox.fetch(url, { headers: nodeHeaders }))
  expect(response.status).toBe(200)
  expect(await sandbox.session('realm-a').requests()).toHaveLength(1)
})

it("answers a happy-dom Request given to sandbox.fetch in Node's realm, with its method, headers and body", async () => {
  const listed = await checked(
    await sandbox.fetch(new window.Request(url, { headers: { authorization: 'Bearer sandbox-free-key' } }) as never),
  )
  expect(listed.status).toBe(200)
  expect(((await listed.json()) as unknown[]).length).toBe(2)
  const create = new window.Request('http://api.test/v1/pets', {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-free-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'From happy-dom', categoryId: 2 }),
  })
  const created = await sandbox.fetch(create as never)
  expect(created.status).toBe(201)
  expect(await created.json()).toMatchObject({ id: 4, name: 'From happy-dom', categoryId: 2 })
})
