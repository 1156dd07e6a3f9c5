import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { useCliSandbox } from '../support/use-cli-sandbox.js'

const dir = await mkdtemp(join(tmpdir(), 'petstore-rate-'))
const keys = join(dir, 'keys.json')
await writeFile(
  keys,
  JSON.stringify({
    keys: [
      { key: 'free-e2e-key-1', plan: 'free' },
      { key: 'burst-e2e-key-1', plan: 'enterprise', perMinute: 25, perDay: 1000 },
      { key: 'ban-e2e-key-01', plan: 'free', perMinute: 2 },
    ],
  }),
)

// The clock starts at the top of a minute, so the minute window can't roll over mid-test.
const { call } = useCliSandbox([
  '--keys',
  keys,
  '--now',
  '2030-01-01T00:00:00Z',
  '--ban-after',
  '2',
  '--ban-seconds',
  '600',
])

it('gives a Free key exactly 60 answers in a minute, then 429 with Retry-After', async () => {
  const statuses: number[] = []
  for (let i = 0; i < 60; i++) statuses.push((await call('/pets?limit=1', { key: 'free-e2e-key-1' })).status)
  expect(statuses).toEqual(Array(60).fill(200))
  const refused = await call('/pets?limit=1', { key: 'free-e2e-key-1' })
  expect(refused.status).toBe(429)
  const retryAfter = Number(refused.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
  expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 0, 1, 0, 1) / 1000))
  expect(await refused.json()).toMatchObject({ code: 'rate_limited', status: 429 })
})

it('admits a burst of concurrent requests exactly up to the quota', async () => {
  const responses = await Promise.all(
    Array.from({ length: 100 }, () => call('/pets?limit=1', { key: 'burst-e2e-key-1' })),
  )
  const statuses = responses.map((response) => response.status)
  expect(statuses.filter((status) => status === 200)).toHaveLength(25)
  expect(statuses.filter((status) => status === 429)).toHaveLength(75)
})

it('bans a key that keeps calling while refused', async () => {
  const statuses: number[] = []
  const codes: string[] = []
  for (let i = 0; i < 5; i++) {
    const response = await call('/pets?limit=1', { key: 'ban-e2e-key-01' })
    statuses.push(response.status)
    codes.push(response.status === 429 ? ((await response.json()) as { code: string }).code : 'ok')
  }
  expect(statuses).toEqual([200, 200, 429, 429, 429])
  expect(codes).toEqual(['ok', 'ok', 'rate_limited', 'rate_limited', 'temporarily_banned'])
  const banned = await call('/pets?limit=1', { key: 'ban-e2e-key-01' })
  expect(Number(banned.headers.get('retry-after'))).toBeGreaterThan(590)
})
