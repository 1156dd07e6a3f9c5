import { getResponse } from 'msw'
import { expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { adminContractViolations } from '../support/admin-contract.js'

async function readyz(sandbox: ReturnType<typeof createSandbox>): Promise<Response> {
  const url = 'http://sandbox.test/readyz'
  const response = (await getResponse(sandbox.originHandlers, new Request(url)))!
  expect(await adminContractViolations('GET', url, response.clone())).toEqual([])
  return response
}

it('is not ready while the seed runs and ready once it is in, over sandbox.readiness() and /readyz alike', async () => {
  const sandbox = createSandbox({ pets: 20_000 })
  expect(sandbox.readiness()).toEqual({
    ready: false,
    checks: [{ name: 'store', ready: false, reason: 'seeding the pets' }],
  })
  expect((await readyz(sandbox)).status).toBe(503)
  await sandbox.ready()
  expect(sandbox.readiness().ready).toBe(true)
  expect((await readyz(sandbox)).status).toBe(200)
  const reset = sandbox.reset()
  expect(sandbox.readiness().ready).toBe(false)
  await reset
  expect(sandbox.readiness().ready).toBe(true)
})

it('reports a storage that cannot serve as not ready, naming it', async () => {
  let reachable = false
  const sandbox = createSandbox({
    pets: 1,
    storage: {
      restored: [],
      nextId: 2,
      commit: async () => undefined,
      notReady: () => (reachable ? undefined : 'backend unreachable'),
    },
  })
  await sandbox.ready()
  expect(sandbox.readiness().checks).toContainEqual({ name: 'storage', ready: false, reason: 'backend unreachable' })
  const refused = await readyz(sandbox)
  expect(refused.status).toBe(503)
  expect((await refused.json()).message).toBe('Not ready (storage: backend unreachable)')
  reachable = true
  expect((await readyz(sandbox)).status).toBe(200)
})

it('leaves other servers probes alone: the in-process handlers without a baseUrl claim /v1 only', async () => {
  const sandbox = createSandbox({ pets: 1 })
  expect(await getResponse(sandbox.handlers, new Request('http://other.test/healthz'))).toBeUndefined()
})
