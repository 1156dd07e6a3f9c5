import { expect, it } from 'vitest'
import { createRateLimiter } from '../../src/core/rate-limit/create-rate-limiter.js'
import { resetOf, windowEnd, windowStart } from '../../src/core/rate-limit/windows.js'
import { forcedError } from '../../src/core/scenarios/forced-status.js'

const BOUNDARY = Date.UTC(2030, 0, 1, 10, 15)
const NEXT_MINUTE = Date.UTC(2030, 0, 1, 10, 16) / 1000

it('puts an instant on a window boundary in the window it starts, not the one it ends (D13)', () => {
  expect(windowStart(BOUNDARY, 'minute')).toBe(BOUNDARY)
  expect(windowStart(BOUNDARY - 1, 'minute')).toBe(Date.UTC(2030, 0, 1, 10, 14))
  expect(windowStart(BOUNDARY + 59_999, 'minute')).toBe(BOUNDARY)
  expect(windowStart(BOUNDARY, 'day')).toBe(Date.UTC(2030, 0, 1))
  expect(windowEnd(Date.UTC(2030, 0, 1), 'day')).toBe(Date.UTC(2030, 0, 2))
  expect(resetOf(BOUNDARY, 'minute')).toBe(NEXT_MINUTE)
  expect(resetOf(BOUNDARY - 1, 'minute')).toBe(BOUNDARY / 1000)
  expect(resetOf(BOUNDARY + 59_999, 'minute')).toBe(NEXT_MINUTE)
})

it('gives a forced 429 on a minute boundary the reset and wait the limiter gives there', () => {
  const limiter = createRateLimiter({ now: () => BOUNDARY, banAfter: 10, banSeconds: 60 })
  const limits = { perMinute: 1, perDay: 100 }
  limiter.take('key:a', limits)
  const refused = limiter.take('key:a', limits)
  expect(refused).toMatchObject({ outcome: 'rate_limited', reset: NEXT_MINUTE, retryAfter: 60 })

  // With no reset among the headers to go by, a forced 429 works the window out itself.
  const headers = new Headers({ 'x-ratelimit-limit': '1' })
  const error = forcedError(429, 'scenario rate-limited', headers, BOUNDARY)
  expect(error.headers).toMatchObject({ 'retry-after': '60' })
})
