import type { Scenario } from './scenario.js'

/** 401 without a key and with a wrong one (spec, Authentication). */
export const checkAuth: Scenario = {
  promises: ['unauthorized-without-key', 'unauthorized-with-wrong-key'],
  requests: 2,
  async run({ client, fail }) {
    const none = await client.send({ path: '/pets', credential: 'none' })
    if (none.status !== 401) fail('unauthorized-without-key', '401 without a key', none)
    const wrong = await client.send({ path: '/pets', credential: 'wrong-key' })
    if (wrong.status !== 401) fail('unauthorized-with-wrong-key', '401 with a wrong key', wrong)
  },
}
