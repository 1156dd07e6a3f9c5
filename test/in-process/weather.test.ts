import { expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { createContractChecker } from '../support/contract-checker.js'

// Weather (docs/decisions.md#d45): latency through two percentiles, failures in bursts, per session.
const contract = createContractChecker()
const api = 'http://api.test/v1'
const KEY = 'sandbox-enterprise-key'

const listing = async (fetch: typeof globalThis.fetch, count: number) => {
  const statuses: number[] = []
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${api}/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } })
    contract.check('GET', `${api}/pets?limit=1`, response)
    statuses.push(response.status)
  }
  return statuses
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

it('draws latency from a log-normal through p50 and p99: 2000 draws land near both', async () => {
  const slept: number[] = []
  const sandbox = createSandbox({
    baseUrl: api,
    faults: { latency: { p50: 50, p99: 400 } },
    sleep: async (ms) => void slept.push(ms),
  })
  await listing(sandbox.fetch, 2000)
  expect(slept).toHaveLength(2000)
  const sorted = [...slept].sort((a, b) => a - b)
  expect(percentile(sorted, 0.5)).toBeGreaterThanOrEqual(44)
  expect(percentile(sorted, 0.5)).toBeLessThanOrEqual(56)
  expect(percentile(sorted, 0.99)).toBeGreaterThanOrEqual(300)
  expect(percentile(sorted, 0.99)).toBeLessThanOrEqual(530)
  // Today's forms keep working beside it.
  await sandbox.faults.set({ latency: 20 })
  expect(sandbox.faults.get().latency).toEqual({ min: 20, max: 20 })
  await sandbox.faults.set({ latency: { min: 5, max: 9 } })
  expect(sandbox.faults.get().latency).toEqual({ min: 5, max: 9 })
})

it('injects failures in bursts of the mean length given, the long-run share still errorRate', async () => {
  const sandbox = createSandbox({ baseUrl: api, faults: { errorRate: 0.2, burst: 5, kinds: ['500'] } })
  const statuses = await listing(sandbox.fetch, 4000)
  const failed = statuses.map((status) => status === 500)
  const share = failed.filter(Boolean).length / failed.length
  const runs: number[] = []
  failed.forEach((fails, index) => {
    if (!fails) return
    if (index > 0 && failed[index - 1]) runs[runs.length - 1]!++
    else runs.push(1)
  })
  const meanRun = runs.reduce((sum, run) => sum + run, 0) / runs.length
  expect(share).toBeGreaterThan(0.16)
  expect(share).toBeLessThan(0.24)
  expect(meanRun).toBeGreaterThan(4)
  expect(meanRun).toBeLessThan(6)
  // Without a burst the same rate fails request by request: runs average about 1 / (1 - 0.2).
  await sandbox.faults.set({ errorRate: 0.2, kinds: ['500'] })
  const plain = (await listing(sandbox.fetch, 2000)).map((status) => status === 500)
  const plainRuns = plain.filter((fails, index) => fails && (index === 0 || !plain[index - 1])).length
  expect(plain.filter(Boolean).length / plainRuns).toBeLessThan(1.6)
})

it("keeps a session's weather in its session, and carries it in its capsule and forks", async () => {
  const sandbox = createSandbox({ baseUrl: api })
  const weather = {
    latency: { p50: 80, p99: 900 },
    errorRate: 0.1,
    burst: 3,
    operations: { getPet: { latency: { p50: 5, p99: 50 }, burst: 2 } },
  }
  await sandbox.session('stormy').faults.set(weather)
  expect(sandbox.session('stormy').faults.get()).toMatchObject(weather)
  expect(sandbox.session('calm').faults.get()).toMatchObject({ latency: { min: 0, max: 0 }, errorRate: 0 })
  expect(sandbox.faults.get().burst).toBeUndefined()
  const capsule = await sandbox.session('stormy').capsule()
  expect(capsule.faults).toMatchObject(weather)
  const restored = createSandbox({ baseUrl: api, from: capsule })
  expect(restored.faults.get()).toMatchObject(weather)
  await sandbox.sessions.put('forked', { from: 'stormy' })
  expect(sandbox.session('forked').faults.get()).toMatchObject(weather)
  expect(() => sandbox.faults.set({ latency: { p50: 900, p99: 80 } })).toThrow(
    'faults.latency: p50 must not be above p99',
  )
  expect(() => sandbox.faults.set({ errorRate: 0.9, burst: 2 })).toThrow(
    'faults.burst must be at least 9.00 for an errorRate of 0.9',
  )
})
