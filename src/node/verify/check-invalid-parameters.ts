import type { Scenario } from './scenario.js'

// Values the spec rules out: limit is an integer from 1 to 100, status one of three values.
const LIMITS = ['0', '101', '-1', 'abc', '1.5']
const STATUSES = ['adopted', 'SOLD']

/** 400 for each listPets parameter the spec rules out. */
export const checkInvalidParameters: Scenario = {
  promises: ['invalid-limit-refused', 'invalid-status-refused'],
  requests: LIMITS.length + STATUSES.length,
  async run({ client, fail }) {
    for (const limit of LIMITS) {
      const exchange = await client.send({ path: `/pets?limit=${limit}` })
      if (exchange.status !== 400) fail('invalid-limit-refused', `400 for limit=${limit}`, exchange)
    }
    for (const status of STATUSES) {
      const exchange = await client.send({ path: `/pets?status=${status}` })
      if (exchange.status !== 400) fail('invalid-status-refused', `400 for status=${status}`, exchange)
    }
  },
}
