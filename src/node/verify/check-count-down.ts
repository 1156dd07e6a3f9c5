import type { Scenario } from './scenario.js'

/** X-RateLimit-Remaining goes down by one per request; a pair straddling a window's end is sent again once. */
export const checkCountDown: Scenario = {
  promises: ['remaining-counts-down'],
  requests: 2,
  async run({ client, fail }) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const first = await client.send({ path: '/pets?limit=1' })
      const second = await client.send({ path: '/pets?limit=1' })
      if (first.headers['x-ratelimit-reset'] !== second.headers['x-ratelimit-reset'] && attempt === 0) continue
      const before = Number(first.headers['x-ratelimit-remaining'])
      const after = Number(second.headers['x-ratelimit-remaining'])
      if (!(after === before - 1)) fail('remaining-counts-down', `X-RateLimit-Remaining ${before - 1} after ${first.headers['x-ratelimit-remaining']}`, second)
      return
    }
  },
}
