import type { Scenario } from './scenario.js'

// Bodies the spec rules out: name and categoryId are required, categoryId an integer, status one of three.
const BODIES: Array<[string, unknown]> = [
  ['an empty object', {}],
  ['no name', { categoryId: 1 }],
  ['no categoryId', { name: 'Verify' }],
  ['a name that is not a string', { name: 42, categoryId: 1 }],
  ['a categoryId that is a string', { name: 'Verify', categoryId: '1' }],
  ['a categoryId that is not an integer', { name: 'Verify', categoryId: 1.5 }],
  ['an unknown status', { name: 'Verify', categoryId: 1, status: 'adopted' }],
  ['an array', [{ name: 'Verify', categoryId: 1 }]],
]

/** 400 for each NewPet the spec rules out; a backend that accepts one stores it, hence a write. */
export const checkInvalidNewPets: Scenario = {
  promises: ['invalid-new-pet-refused'],
  requests: BODIES.length,
  needs: 'writes',
  async run({ client, fail }) {
    for (const [what, body] of BODIES) {
      const exchange = await client.send({ method: 'POST', path: '/pets', body })
      if (exchange.status !== 400) fail('invalid-new-pet-refused', `400 for a NewPet with ${what}`, exchange)
    }
  },
}
