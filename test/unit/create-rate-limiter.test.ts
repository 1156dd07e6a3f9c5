import { expect, it } from 'vitest'
import { createClock } from '../../src/core/clock/create-clock.js'
import { createRateLimiter } from '../../src/core/rate-limit/create-rate-limiter.js'

const free = { perMinute: 60, perDay: 1000 }
// 2030-01-01T10:00:30Z: half-way through a UTC minute.
const START = Date.UTC(2030, 0, 1, 10, 0, 30)

function setup(options: { banAfter?: number; banSeconds?: number } = {}) {
  const clock = createClock(() => START)
  const limiter = createRateLimiter({
    now: clock.now,
    banAfter: options.banAfter ?? 10,
    banSeconds: options.banSeconds ?? 900,
  })
  return { clock, limiter }
}

function spend(limiter: ReturnType<typeof setup>['limiter'], id: string, count: number, limits = free) {
  return Array.from({ length: count }, () => limiter.take(id, limits))
}

it('admits exactly the per-minute limit, then refuses until the minute ends', () => {
  const { limiter } = setup()
  const admitted = spend(limiter, 'k', 60)
  expect(admitted.every((decision) => decision.outcome === 'allowed')).toBe(true)
  expect(admitted.map((decision) => decision.remaining).slice(-3)).toEqual([2, 1, 0])
  const refused = limiter.take('k', free)
  expect(refused).toEqual({
    outcome: 'rate_limited',
    limit: 60,
    remaining: 0,
    reset: Date.UTC(2030, 0, 1, 10, 1, 0) / 1000,
    retryAfter: 30,
  })
})

it('describes the UTC minute window in Limit, Remaining and Reset', () => {
  const { limiter } = setup()
  expect(limiter.take('k', free)).toEqual({
    outcome: 'allowed',
    limit: 60,
    remaining: 59,
    reset: Date.UTC(2030, 0, 1, 10, 1, 0) / 1000,
  })
})

it('rolls the minute window over at the next UTC minute', () => {
  const { clock, limiter } = setup()
  spend(limiter, 'k', 60)
  expect(limiter.take('k', free).outcome).toBe('rate_limited')
  clock.advance(29_999)
  expect(limiter.take('k', free).outcome).toBe('rate_limited')
  clock.advance(1)
  const next = limiter.take('k', free)
  expect(next).toMatchObject({ outcome: 'allowed', remaining: 59, reset: Date.UTC(2030, 0, 1, 10, 2, 0) / 1000 })
})

it('refused requests consume no quota', () => {
  const { clock, limiter } = setup({ banAfter: 1000 })
  spend(limiter, 'k', 60)
  spend(limiter, 'k', 5)
  clock.advance(30_000)
  expect(limiter.inspect('k', free).day.used).toBe(60)
})

it('lets the day window bind once it has fewer requests left than the minute', () => {
  const { clock, limiter } = setup()
  const limits = { perMinute: 60, perDay: 100 }
  spend(limiter, 'k', 50)
  clock.advance(60_000)
  // 50 left today, 60 this minute: the day binds.
  const decision = limiter.take('k', limits)
  expect(decision).toEqual({ outcome: 'allowed', limit: 100, remaining: 49, reset: Date.UTC(2030, 0, 2) / 1000 })
})

it('keeps describing the minute on a tie', () => {
  const { limiter } = setup()
  expect(limiter.take('k', { perMinute: 10, perDay: 10 })).toMatchObject({
    limit: 10,
    remaining: 9,
    reset: Date.UTC(2030, 0, 1, 10, 1, 0) / 1000,
  })
})

it('refuses for the rest of the UTC day once the day is spent, and admits again after midnight', () => {
  const { clock, limiter } = setup({ banAfter: 1000 })
  const limits = { perMinute: 60, perDay: 100 }
  spend(limiter, 'k', 60)
  clock.advance(60_000)
  spend(limiter, 'k', 40)
  const refused = limiter.take('k', limits)
  const midnight = Date.UTC(2030, 0, 2)
  expect(refused).toMatchObject({ outcome: 'rate_limited', limit: 100, remaining: 0, reset: midnight / 1000 })
  expect(refused.retryAfter).toBe(Math.ceil((midnight - clock.now()) / 1000))
  clock.set(midnight - 1)
  expect(limiter.take('k', limits).outcome).toBe('rate_limited')
  clock.set(midnight)
  expect(limiter.take('k', limits)).toMatchObject({ outcome: 'allowed', remaining: 59 })
})

it('bans after banAfter refused requests in one window and ends the ban after banSeconds', () => {
  const { clock, limiter } = setup({ banAfter: 3, banSeconds: 120 })
  spend(limiter, 'k', 60)
  const refusals = spend(limiter, 'k', 3)
  expect(refusals.map((decision) => decision.outcome)).toEqual(['rate_limited', 'rate_limited', 'rate_limited'])
  const ban = limiter.take('k', free)
  expect(ban).toMatchObject({
    outcome: 'temporarily_banned',
    remaining: 0,
    retryAfter: 120,
    reset: (START + 120_000) / 1000,
  })

  // The minute rolls over, but the ban holds until it ends.
  clock.advance(60_000)
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 60 })
  clock.advance(59_999)
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 1 })
  clock.advance(1)
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'allowed' })
  expect(limiter.inspect('k', free).bannedUntil).toBeUndefined()
})

it('says in Retry-After when a request will succeed: the end of a spent day when it outlasts the ban (D14)', () => {
  const { clock, limiter } = setup({ banAfter: 2, banSeconds: 3 })
  limiter.arrange('k', free, { dayRemaining: 0 })
  spend(limiter, 'k', 2)
  const midnight = Date.UTC(2030, 0, 2)
  const untilMidnight = Math.ceil((midnight - clock.now()) / 1000)
  const ban = limiter.take('k', free)
  // The ban's own end is still in X-RateLimit-Reset; Retry-After waits for the day.
  expect(ban).toMatchObject({ outcome: 'temporarily_banned', reset: (START + 3_000) / 1000, retryAfter: untilMidnight })
  clock.advance(3_000)
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'rate_limited', retryAfter: untilMidnight - 3 })
  // A spent minute outlasting a short ban counts too.
  const minute = setup({ banAfter: 0, banSeconds: 3 })
  spend(minute.limiter, 'm', 60)
  expect(minute.limiter.take('m', free)).toMatchObject({
    outcome: 'temporarily_banned',
    reset: (START + 3_000) / 1000,
    retryAfter: 30,
  })
  // A ban that outlasts every window is what Retry-After names.
  const long = setup({ banAfter: 0, banSeconds: 900 })
  spend(long.limiter, 'l', 60)
  expect(long.limiter.take('l', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 900 })
})

it('counts refusals per window: refusals in separate minutes do not add up to a ban', () => {
  const { clock, limiter } = setup({ banAfter: 3 })
  spend(limiter, 'k', 60)
  spend(limiter, 'k', 3)
  clock.advance(30_000)
  spend(limiter, 'k', 60)
  const refusals = spend(limiter, 'k', 3)
  expect(refusals.every((decision) => decision.outcome === 'rate_limited')).toBe(true)
})

it('never lets two buckets share a counter', () => {
  const { limiter } = setup()
  spend(limiter, 'a', 60)
  expect(limiter.take('a', free).outcome).toBe('rate_limited')
  expect(limiter.take('b', free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
})

it('applies custom (Enterprise) limits per key', () => {
  const { limiter } = setup()
  const enterprise = { perMinute: 3, perDay: 5 }
  expect(spend(limiter, 'e', 3, enterprise).map((decision) => decision.remaining)).toEqual([2, 1, 0])
  expect(limiter.take('e', enterprise)).toMatchObject({ outcome: 'rate_limited', limit: 3 })
})

it('arranges a bucket: remaining quota, a ban and its lifting', () => {
  const { limiter } = setup()
  expect(limiter.arrange('k', free, { remaining: 2 })).toMatchObject({
    minute: { remaining: 2 },
    day: { remaining: 1000 },
  })
  expect(spend(limiter, 'k', 3).map((decision) => decision.outcome)).toEqual(['allowed', 'allowed', 'rate_limited'])
  limiter.arrange('k', free, { banned: 30 })
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 30 })
  limiter.arrange('k', free, { banned: false, remaining: 60 })
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
})

it('peeks at a bucket without counting', () => {
  const { limiter } = setup()
  limiter.take('k', free)
  expect(limiter.peek('k', free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
  expect(limiter.peek('k', free)).toMatchObject({ remaining: 59 })
})

it('forgets counters and bans on clear', () => {
  const { limiter } = setup({ banAfter: 0 })
  spend(limiter, 'k', 61)
  expect(limiter.take('k', free).outcome).toBe('temporarily_banned')
  limiter.clear()
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
})

it('forgets idle buckets of many client addresses once their windows are over, and keeps those still counting', () => {
  const { clock, limiter } = setup({ banAfter: 0, banSeconds: 86_400 })
  const addresses = Array.from({ length: 20_000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`)
  for (const address of addresses) limiter.take(address, free)
  // Buckets only looked at hold nothing either.
  for (let i = 0; i < 1_000; i++) limiter.peek(`192.168.0.${i}`, free)
  limiter.arrange('banned', free, { banned: true })
  spend(limiter, 'spent-day', 1, { perMinute: 60, perDay: 1 })
  expect(limiter.take('spent-day', { perMinute: 60, perDay: 1 }).outcome).toBe('temporarily_banned')
  expect(limiter.size()).toBe(21_002)

  // The next minute: the day counts of today's addresses are still needed, peeked-only buckets are not.
  clock.advance(30_000)
  expect(limiter.take(addresses[0]!, free)).toMatchObject({ outcome: 'allowed' })
  expect(limiter.size()).toBe(20_002)
  expect(limiter.inspect(addresses[1]!, free).day.used).toBe(1)

  // The next UTC day: every window is over; only the buckets under a ban that is still in force stay.
  clock.set(Date.UTC(2030, 0, 2, 0, 0, 0))
  expect(limiter.take('new', free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
  expect(limiter.size()).toBe(3)
  // A forgotten bucket answers as a fresh one would.
  expect(limiter.take(addresses[1]!, free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
  expect(limiter.inspect(addresses[1]!, free).day.used).toBe(1)
  // Once the bans end (a day after they began), their buckets go too.
  clock.set(Date.UTC(2030, 0, 2, 10, 1, 0))
  limiter.take('new', free)
  expect(limiter.size()).toBe(2)
})

it('gives an address back its day count when it returns the same day after minutes idle', () => {
  const { clock, limiter } = setup({ banAfter: 1000 })
  const limits = { perMinute: 60, perDay: 100 }
  const returning = 'address:198.51.100.7'
  spend(limiter, returning, 50, limits)
  // Minutes pass while other clients are counted: the idle address is kept as its day count alone.
  for (let minute = 1; minute <= 5; minute++) {
    clock.advance(60_000)
    limiter.take(`address:203.0.113.${minute}`, limits)
  }
  expect(limiter.size()).toBe(6)
  const midnight = Date.UTC(2030, 0, 2)
  expect(limiter.take(returning, limits)).toEqual({
    outcome: 'allowed',
    limit: 100,
    remaining: 49,
    reset: midnight / 1000,
  })
  expect(limiter.inspect(returning, limits)).toMatchObject({
    minute: { used: 1 },
    day: { used: 51, remaining: 49 },
    refused: 0,
  })
  expect(spend(limiter, returning, 49, limits).every((decision) => decision.outcome === 'allowed')).toBe(true)
  expect(limiter.take(returning, limits)).toMatchObject({
    outcome: 'rate_limited',
    limit: 100,
    retryAfter: Math.ceil((midnight - clock.now()) / 1000),
  })
})

it('forgets the day counts of idle addresses when the UTC day turns', () => {
  const { clock, limiter } = setup()
  spend(limiter, 'address:198.51.100.7', 10)
  clock.advance(60_000)
  limiter.take('address:203.0.113.1', free)
  expect(limiter.inspect('address:198.51.100.7', free).day.used).toBe(10)
  clock.advance(60_000)
  limiter.take('address:203.0.113.1', free)
  expect(limiter.size()).toBe(2)

  clock.set(Date.UTC(2030, 0, 2, 0, 0, 30))
  expect(limiter.take('address:203.0.113.2', free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
  expect(limiter.size()).toBe(1)
  expect(limiter.take('address:198.51.100.7', free)).toMatchObject({ outcome: 'allowed', remaining: 59 })
  expect(limiter.inspect('address:198.51.100.7', free).day).toMatchObject({ used: 1, remaining: 999 })
})

it('keeps bans in force, and the day count under a ban that ended, across idle minutes', () => {
  const { clock, limiter } = setup({ banAfter: 0, banSeconds: 150 })
  spend(limiter, 'k', 60)
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 150 })
  limiter.arrange('arranged', free, { banned: 600 })
  clock.advance(60_000)
  limiter.take('other', free)
  clock.advance(60_000)
  limiter.take('other', free)
  expect(limiter.take('k', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 30 })
  expect(limiter.take('arranged', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 480 })

  // The ban on `k` ends; minutes later its 60 requests still count for the day.
  clock.advance(3 * 60_000)
  limiter.take('other', free)
  expect(limiter.inspect('k', free)).toMatchObject({ banned: false, refused: 0, day: { used: 60, remaining: 940 } })
  expect(limiter.take('arranged', free)).toMatchObject({ outcome: 'temporarily_banned', retryAfter: 300 })
})

it('keeps counting refusals of a spent day towards a ban across idle minutes, and not those of a minute that is over', () => {
  const { clock, limiter } = setup({ banAfter: 3 })
  const limits = { perMinute: 60, perDay: 5 }
  spend(limiter, 'day', 5, limits)
  expect(spend(limiter, 'day', 2, limits).map((decision) => decision.outcome)).toEqual(['rate_limited', 'rate_limited'])
  spend(limiter, 'minute', 60)
  expect(spend(limiter, 'minute', 3).every((decision) => decision.outcome === 'rate_limited')).toBe(true)
  expect(limiter.inspect('minute', free).refused).toBe(3)
  // Under a ban arranged later, the bucket stays whole; its minute's refusals end all the same.
  spend(limiter, 'minute-banned', 61)
  limiter.arrange('minute-banned', free, { banned: 600 })

  clock.advance(2 * 60_000)
  limiter.take('other', free)
  expect(limiter.inspect('day', limits)).toMatchObject({ refused: 2, day: { used: 5 } })
  expect(limiter.take('day', limits)).toMatchObject({ outcome: 'rate_limited', limit: 5 })
  expect(limiter.take('day', limits)).toMatchObject({ outcome: 'temporarily_banned' })
  // The minute's refusals ended with their minute: they no longer count towards a ban.
  expect(limiter.inspect('minute', free)).toMatchObject({ refused: 0, day: { used: 60 } })
  expect(limiter.inspect('minute-banned', free)).toMatchObject({ banned: true, refused: 0, day: { used: 60 } })
})
