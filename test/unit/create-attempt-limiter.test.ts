import { expect, it } from 'vitest'
import { createAttemptLimiter } from '../../src/core/admin/create-attempt-limiter.js'

it('allows `limit` failures per client and window, then says how long to wait, and forgets the window once it ends', () => {
  let now = 1_000_000
  const limiter = createAttemptLimiter({ limit: 3, windowMs: 60_000, now: () => now })
  for (let i = 0; i < 3; i++) {
    expect(limiter.blocked('a')).toEqual({ allowed: true })
    limiter.fail('a')
  }
  expect(limiter.blocked('a')).toEqual({ allowed: false, retryAfter: 60 })
  expect(limiter.blocked('b')).toEqual({ allowed: true })
  now += 59_500
  expect(limiter.blocked('a')).toEqual({ allowed: false, retryAfter: 1 })
  now += 500
  expect(limiter.blocked('a')).toEqual({ allowed: true })
  // A clock moved back (the sandbox clock can be) starts a fresh window rather than a longer one.
  limiter.fail('c')
  now -= 3_600_000
  expect(limiter.blocked('c')).toEqual({ allowed: true })
})

it('remembers a bounded number of clients: a flood of addresses cannot grow it without end', () => {
  const now = 0
  const limiter = createAttemptLimiter({ limit: 1, windowMs: 60_000, now: () => now, maxClients: 100 })
  for (let i = 0; i < 10_000; i++) limiter.fail(`10.0.${Math.floor(i / 250)}.${i % 250}`)
  // The newest clients are still counted; the oldest were let go.
  expect(limiter.blocked('10.0.39.249').allowed).toBe(false)
  expect(limiter.blocked('10.0.0.0').allowed).toBe(true)
})
