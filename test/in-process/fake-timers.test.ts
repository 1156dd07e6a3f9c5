import { afterEach, expect, it, vi } from 'vitest'
import { createSandbox, type ApiError } from '../../src/index.js'
import { contractViolations } from '../support/contract.js'

// The documented way to let vitest's (or Jest's) fake timers drive the sandbox clock: a `now`
// that reads `Date.now` at each call instead of the real one captured when the sandbox is made.
afterEach(() => {
  vi.useRealTimers()
})

it('follows fake timers when now reads Date.now at each call', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2030-12-04T23:59:00Z'))
  const sandbox = createSandbox({ pets: 2, now: () => Date.now() })
  const before = await sandbox.fetch('http://api.test/v1/pets/1', {
    headers: { authorization: 'Bearer sandbox-free-key' },
  })
  expect(before.status).toBe(200)
  vi.setSystemTime(new Date('2030-12-05T00:00:01Z'))
  const after = await sandbox.fetch('http://api.test/v1/pets/1', {
    headers: { authorization: 'Bearer sandbox-free-key' },
  })
  expect(after.status).toBe(410)
  expect(await contractViolations('GET', after.url || 'http://api.test/v1/pets/1', after.clone())).toEqual([])
  expect(((await after.json()) as ApiError).code).toBe('gone')
})

it('keeps real time by default, whatever fake timers say', () => {
  const sandbox = createSandbox({ pets: 0 })
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2000-01-01T00:00:00Z'))
  expect(sandbox.clock.now()).toBeGreaterThan(Date.parse('2026-01-01T00:00:00Z'))
})
