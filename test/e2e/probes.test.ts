import { expect, it } from 'vitest'
import { createAdminContractChecker } from '../support/admin-contract.js'
import { startSeedingCli } from '../support/start-seeding-cli.js'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const { call, url, contract } = useCliSandbox(['--pets', '5'])
const adminContract = createAdminContractChecker()

async function probe(path: string, init: RequestInit = {}): Promise<Response> {
  const target = `${url().replace(/\/v1$/, '')}${path}`
  const response = await fetch(target, init)
  adminContract.check(init.method ?? 'GET', target, response)
  return response
}

/** What is left of this client address's quota (D16), read from a 401 that spends one request. */
async function addressRemaining(): Promise<number> {
  const response = await call('/pets', { key: null })
  expect(response.status).toBe(401)
  return Number(response.headers.get('x-ratelimit-remaining'))
}

it('answers /healthz and /readyz without a key, small JSON bodies, never cached', async () => {
  const health = await probe('/healthz')
  expect(health.status).toBe(200)
  expect(await health.json()).toEqual({ status: 'ok' })
  expect(health.headers.get('cache-control')).toBe('no-store')
  const ready = await probe('/readyz')
  expect(ready.status).toBe(200)
  expect(await ready.json()).toEqual({ status: 'ready', checks: [{ name: 'store', ready: true }] })
})

it('spends no quota: a hundred probes leave the address quota where it was', async () => {
  const before = await addressRemaining()
  for (let i = 0; i < 50; i++) {
    expect((await probe('/healthz')).status).toBe(200)
    expect((await probe('/readyz', { headers: { authorization: 'Bearer not-a-key' } })).status).toBe(200)
  }
  expect(await addressRemaining()).toBe(before - 1)
})

it('answers other methods with 405 and Allow, and other paths are still the API 404', async () => {
  const post = await probe('/readyz', { method: 'POST' })
  expect(post.status).toBe(405)
  expect(post.headers.get('allow')).toBe('GET')
  expect((await call(`${url().replace(/\/v1$/, '')}/healthz/extra`)).status).toBe(404)
})

it('keeps answering 200 under load, while the API serves 50 concurrent clients', async () => {
  let stop = false
  const statuses: number[] = []
  const load = Array.from({ length: 50 }, async (_, i) => {
    while (!stop) {
      const response = await call(
        i % 5 === 0 ? '/pets' : '/pets?limit=50',
        i % 5 === 0
          ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Load","categoryId":1}' }
          : {},
      )
      statuses.push(response.status)
      await response.arrayBuffer()
    }
  })
  const probes: number[] = []
  while (statuses.length < 500) {
    probes.push((await probe('/readyz')).status, (await probe('/healthz')).status)
  }
  stop = true
  await Promise.all(load)
  expect(new Set(probes)).toEqual(new Set([200]))
  expect(statuses.filter((status) => status >= 500)).toEqual([])
  expect(contract.count()).toBeGreaterThanOrEqual(500)
})

it('says 503 on /readyz while a large seed runs, then 200; /healthz is 200 throughout', async () => {
  const cli = await startSeedingCli(['--pets', '100000'])
  try {
    const statuses: number[] = []
    for (;;) {
      const readyUrl = `${cli.origin}/readyz`
      const response = await fetch(readyUrl)
      adminContract.check('GET', readyUrl, response)
      statuses.push(response.status)
      if (response.status === 503) {
        expect(response.headers.get('retry-after')).toBe('1')
        expect((await response.json()).message).toBe('Not ready (store: seeding the pets)')
        const health = await fetch(`${cli.origin}/healthz`)
        adminContract.check('GET', `${cli.origin}/healthz`, health)
        expect(health.status).toBe(200)
      }
      if (response.status === 200) break
    }
    // The first poll came right after the server said it was seeding 100000 pets.
    expect(statuses[0]).toBe(503)
    expect(statuses.at(-1)).toBe(200)
    expect(statuses.filter((status) => status !== 503 && status !== 200)).toEqual([])
  } finally {
    cli.child.kill('SIGKILL')
  }
})

it('says how to turn the admin API on when it is off: a 404 naming --admin-token, for its paths and the dashboard alike', async () => {
  const origin = url().replace(/\/v1$/, '')
  for (const path of ['/__sandbox/state', '/__sandbox/', '/__sandbox/requests.har?key=sandbox-free-key']) {
    const response = await call(`${origin}${path}`, { key: null })
    expect(response.status).toBe(404)
    const body = (await response.json()) as { message: string }
    expect(body.message).toBe(
      `${path.split('?')[0]}: the admin API is off: start the sandbox with --admin-token <token> (or PETSTORE_SANDBOX_ADMIN_TOKEN; adminToken in createSandbox) and send Authorization: Bearer <token>`,
    )
  }
})
