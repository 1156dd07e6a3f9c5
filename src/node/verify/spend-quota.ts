import type { Scenario } from './scenario.js'

/**
 * Spends the key's window, checks the 429 and its Retry-After, waits that long and checks that
 * requests succeed again; it stops at the first 429, so the key is refused once and never banned.
 */
export const spendQuota: Scenario = {
  promises: ['quota-429-and-recovery'],
  requests: 1,
  needs: 'quota',
  async run({ client, fail, skip, announce, maxQuotaRequests, sleep }) {
    const first = await client.send({ path: '/pets?limit=1', retryAfter429: false })
    const remaining = Number(first.headers['x-ratelimit-remaining'])
    if (first.status !== 429 && !Number.isSafeInteger(remaining)) {
      fail('quota-429-and-recovery', 'an integer X-RateLimit-Remaining to know how many requests spend the quota', first)
      return
    }
    if (remaining > maxQuotaRequests) {
      skip('quota-429-and-recovery', `the key has ${remaining} requests left in its window, more than --max-quota-requests ${maxQuotaRequests}`)
      return
    }
    announce(`Spending the key's quota: up to ${remaining + 2} more requests`)
    let refused = first.status === 429 ? first : undefined
    for (let sent = 0; refused === undefined && sent <= remaining; sent++) {
      const exchange = await client.send({ path: '/pets?limit=1', retryAfter429: false })
      if (exchange.status === 429) refused = exchange
    }
    if (refused === undefined) {
      fail('quota-429-and-recovery', `a 429 after ${remaining} more requests spent X-RateLimit-Remaining`, first)
      return
    }
    const retryAfter = refused.headers['retry-after'] ?? ''
    if (!/^[1-9]\d*$/.test(retryAfter)) {
      fail('quota-429-and-recovery', 'a 429 with Retry-After in whole seconds, at least 1', refused)
      return
    }
    if (refused.headers['x-ratelimit-remaining'] !== '0') fail('quota-429-and-recovery', 'X-RateLimit-Remaining 0 on the 429', refused)
    await sleep(Number(retryAfter) * 1000)
    const recovered = await client.send({ path: '/pets?limit=1', retryAfter429: false })
    if (recovered.status !== 200) fail('quota-429-and-recovery', `200 after waiting Retry-After (${retryAfter} s)`, recovered)
  },
}
