import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createContractChecker } from '../support/contract-checker.js'
import { serveWorkerPage, type WorkerPage } from '../support/serve-worker-page.js'

// A session's weather (docs/decisions.md#d45) in the service worker: failures in bursts at the
// long-run rate, latency through two percentiles, and none of it outside the session.
let served: WorkerPage
let page: Page
const contract = createContractChecker()

beforeAll(async () => {
  served = await serveWorkerPage('weather')
  page = served.page
})

afterAll(() => served?.close())

interface Answered {
  status: number
  headers: Record<string, string>
  text: string
  ms: number
}

/** Sets a session's faults through the page's sandbox, then makes `count` listings in it one after another. */
function inWeather(session: string | undefined, faults: object | undefined, count: number): Promise<Answered[]> {
  return page.evaluate(
    async ({ session, faults, count }) => {
      const { sandbox } = globalThis as unknown as {
        sandbox: { session(name: string): { faults: { set(options: object): unknown } } }
      }
      if (session !== undefined && faults !== undefined) await sandbox.session(session).faults.set(faults)
      const headers: Record<string, string> = { authorization: 'Bearer sandbox-enterprise-key' }
      if (session !== undefined) headers['x-sandbox-session'] = session
      const answered = []
      for (let index = 0; index < count; index++) {
        const started = performance.now()
        const response = await fetch('/v1/pets?limit=1', { headers })
        const text = await response.text()
        answered.push({
          status: response.status,
          headers: Object.fromEntries(response.headers),
          text,
          ms: performance.now() - started,
        })
      }
      return answered
    },
    { session, faults, count },
  )
}

/** Checks the first answer of each status against the contract. */
function checkEachStatus(answers: Answered[]) {
  const url = `${new URL(page.url()).origin}/v1/pets?limit=1`
  for (const status of new Set(answers.map((answer) => answer.status))) {
    const answer = answers.find((each) => each.status === status)!
    contract.check('GET', url, new Response(answer.text, { status, headers: answer.headers }))
  }
}

it('fails a session’s requests in bursts at the long-run rate, and no other session’s', async () => {
  const storm = await inWeather('storm', { seed: 7, errorRate: 0.3, burst: 5, kinds: ['503'] }, 1000)
  checkEachStatus(storm)
  const failed = storm.map((answer) => answer.status === 503)
  const share = failed.filter(Boolean).length / failed.length
  const runs = failed.filter((fails, index) => fails && !failed[index - 1]).length
  expect(new Set(storm.map((answer) => answer.status))).toEqual(new Set([200, 503]))
  expect(share).toBeGreaterThan(0.2)
  expect(share).toBeLessThan(0.4)
  // Drawn one by one at 0.3, runs of failures would last 1 / 0.7 ≈ 1.4 requests on average.
  expect((share * failed.length) / runs).toBeGreaterThan(3)
  expect((share * failed.length) / runs).toBeLessThan(8)

  const calm = await inWeather(undefined, undefined, 50)
  checkEachStatus(calm)
  expect(calm.every((answer) => answer.status === 200)).toBe(true)
})

it('delays a session’s requests through its p50 and p99, and carries its weather in its capsule', async () => {
  const slow = await inWeather('slow', { seed: 3, latency: { p50: 40, p99: 300 } }, 31)
  checkEachStatus(slow)
  expect(slow.every((answer) => answer.status === 200)).toBe(true)
  const sorted = slow.map((answer) => answer.ms).sort((a, b) => a - b)
  // A drawn latency is a least time: a busy machine only adds to it.
  expect(sorted[15]).toBeGreaterThanOrEqual(25)
  expect(sorted[30]).toBeGreaterThanOrEqual(80)

  const faults = await page.evaluate(async () => {
    const { sandbox } = globalThis as unknown as {
      sandbox: { session(name: string): { capsule(): Promise<{ faults: unknown }> } }
    }
    return [(await sandbox.session('slow').capsule()).faults, (await sandbox.session('storm').capsule()).faults]
  })
  expect(faults[0]).toMatchObject({ latency: { p50: 40, p99: 300 } })
  expect(faults[1]).toMatchObject({ errorRate: 0.3, burst: 5 })
})
