import { getResponse } from 'msw'
import { expect, it } from 'vitest'
import { createSandbox, type FaultOptions } from '../../src/index.js'
import { contractViolations } from '../support/contract.js'
import { API, useInProcessSandbox } from '../support/use-in-process-sandbox.js'

const slept: number[] = []
const { sandbox, api } = useInProcessSandbox({
  pets: 5,
  // Latency is waited out with this instead of a real timer: the tests record it, never wait.
  sleep: async (ms) => {
    slept.push(ms)
  },
})

/** The status and fault mark of `count` listPets calls to a fresh sandbox with `faults`. */
async function run(faults: FaultOptions, count = 40): Promise<string[]> {
  const delays: number[] = []
  const fresh = createSandbox({ pets: 2, faults, sleep: async (ms) => void delays.push(ms) })
  const outcomes: string[] = []
  for (let i = 0; i < count; i++) {
    const url = `${API}/pets?limit=1`
    const response = await getResponse(
      fresh.handlers,
      new Request(url, { headers: { authorization: 'Bearer sandbox-enterprise-key' } }),
    )
    if (response!.type === 'error') {
      outcomes.push('drop')
      continue
    }
    expect(await contractViolations('GET', url, response!.clone())).toEqual([])
    outcomes.push(`${response!.status} ${response!.headers.get('x-sandbox-fault') ?? '-'}`)
  }
  return [...outcomes, `delays ${delays.join(',')}`]
}

it('injects the same faults for the same seed, and others for another seed', async () => {
  const faults: FaultOptions = {
    latency: { min: 10, max: 500 },
    errorRate: 0.4,
    kinds: ['500', '503', 'drop'],
    seed: 42,
  }
  const first = await run(faults)
  const second = await run(faults)
  const other = await run({ ...faults, seed: 43 })
  expect(second).toEqual(first)
  expect(other).not.toEqual(first)
  // All three kinds and plain successes occur: the rate and kinds are really drawn.
  expect(first.some((outcome) => outcome.startsWith('200 latency='))).toBe(true)
  for (const kind of ['500 ', '503 ', 'drop']) expect(first.some((outcome) => outcome.startsWith(kind))).toBe(true)
})

it('draws latency within the range, waits it out, and marks it', async () => {
  sandbox.faults.set({ latency: { min: 100, max: 300 } })
  slept.length = 0
  for (let i = 0; i < 10; i++) {
    const response = await api('/pets?limit=1')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-sandbox-fault')).toBe(`latency=${slept[i]}ms`)
  }
  expect(slept).toHaveLength(10)
  expect(slept.every((ms) => ms >= 100 && ms <= 300)).toBe(true)
  expect(new Set(slept).size).toBeGreaterThan(1)
})

it('answers injected failures as 500 or 503 Error bodies marked as faults', async () => {
  sandbox.faults.set({ errorRate: 1, kinds: ['503'] })
  const unavailable = await api('/pets')
  expect(unavailable.status).toBe(503)
  expect(unavailable.headers.get('x-sandbox-fault')).toBe('error=503')
  expect(await unavailable.json()).toMatchObject({ code: 'service_unavailable', status: 503 })
  sandbox.faults.set({ errorRate: 1, kinds: ['500'] })
  const internal = await api('/pets/1')
  expect(internal.status).toBe(500)
  expect(internal.headers.get('deprecation')).not.toBeNull()
  expect(await internal.json()).toMatchObject({
    code: 'internal_error',
    message: expect.stringMatching(/Injected fault/),
  })
})

it('drops the connection: in-process fetch rejects with a TypeError, and the request log says drop', async () => {
  sandbox.faults.set({ errorRate: 1, kinds: ['drop'] })
  await expect(api('/pets')).rejects.toThrow(TypeError)
  expect(sandbox.requests(1)[0]).toMatchObject({ method: 'GET', path: '/v1/pets', status: 0, fault: 'drop' })
})

it('applies per-operation overrides over the sandbox-wide setting', async () => {
  sandbox.faults.set({ errorRate: 0, operations: { createPet: { errorRate: 1 } } })
  const created = await api('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })
  expect(created.status).toBeGreaterThanOrEqual(500)
  expect(sandbox.pets.all()).toHaveLength(5)
  expect((await api('/pets')).status).toBe(200)
})

it('injects nothing where no operation is reached: refusals keep their own answers', async () => {
  sandbox.faults.set({ errorRate: 1 })
  expect((await api('/pets', { key: null })).status).toBe(401)
  expect((await api('/pets/1/nowhere')).status).toBe(404)
})

it('starts the draws over on reset, so a reset run repeats', async () => {
  sandbox.faults.set({ errorRate: 0.5, seed: 9 })
  const outcomes = async () => {
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await api('/pets?limit=1', { key: 'sandbox-enterprise-key' })).status)
    return statuses
  }
  const first = await outcomes()
  await sandbox.reset()
  expect(await outcomes()).toEqual(first)
  expect(first).toContain(200)
  expect(first.some((status) => status >= 500)).toBe(true)
})

it('refuses a bad fault configuration with a clear message, keeping the one in force', () => {
  sandbox.faults.set({ errorRate: 0.25 })
  expect(() => sandbox.faults.set({ errorRate: 1.5 })).toThrow('faults.errorRate must be between 0 and 1')
  expect(() => sandbox.faults.set({ latency: { min: 5, max: 1 } })).toThrow('faults.latency: min must not be above max')
  expect(() => sandbox.faults.set({ latency: 70_000 } as never)).toThrow('faults.latency must be between 0 and 60000')
  expect(() => sandbox.faults.set({ latency: { min: 5, max: 70_000 } })).toThrow(
    'faults.latency.max must be between 0 and 60000',
  )
  expect(() => sandbox.faults.set({ errorrate: 1 } as never)).toThrow(
    'faults.errorrate: unknown field; did you mean errorRate?',
  )
  expect(() => sandbox.faults.set({ operations: { createPet: { latncy: 5 } } } as never)).toThrow(
    'faults.operations.createPet.latncy: unknown field; did you mean latency?',
  )
  expect(() => sandbox.faults.set({ operations: { deletePet: { errorRate: 1 } } })).toThrow(
    /deletePet is not an operation/,
  )
  expect(() => createSandbox({ faults: { kinds: ['418' as never] } })).toThrow(
    'faults.kinds[0] must be one of 500, 503, drop',
  )
  expect(sandbox.faults.get().errorRate).toBe(0.25)
})

it('keeps the last requests in a bounded log, oldest first, keys masked', async () => {
  const small = createSandbox({ pets: 1, requestLogSize: 2 })
  for (const limit of [1, 2, 3]) {
    await getResponse(
      small.handlers,
      new Request(`${API}/pets?limit=${limit}&api_key=secret`, {
        headers: { authorization: 'Bearer sandbox-free-key' },
      }),
    )
  }
  const entries = small.requests()
  expect(entries.map((entry) => entry.path)).toEqual(['/v1/pets?limit=2&api_key=…', '/v1/pets?limit=3&api_key=…'])
  expect(entries[0]).toMatchObject({ method: 'GET', status: 200, key: expect.stringMatching(/^sand…#[0-9a-f]{4}$/) })
  expect(JSON.stringify(entries)).not.toContain('sandbox-free-key')
  expect(small.requests(1)).toEqual([entries[1]])
})
