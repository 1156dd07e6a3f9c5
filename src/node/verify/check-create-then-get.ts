import { isDeepStrictEqual } from 'node:util'
import type { Scenario } from './scenario.js'

/** createPet answers 201 with the stored Pet, and getPet returns the same Pet. */
export const checkCreateThenGet: Scenario = {
  promises: ['create-then-get'],
  requests: 2,
  needs: 'writes',
  async run({ client, fail }) {
    const sent = { name: 'petstore-sandbox verify', categoryId: 1, status: 'pending' }
    const created = await client.send({ method: 'POST', path: '/pets', body: sent })
    const pet = created.body as { id?: unknown } | undefined
    if (created.status !== 201 || typeof pet?.id !== 'number') {
      fail('create-then-get', '201 with the created Pet and its id', created)
      return
    }
    const fetched = await client.send({ path: `/pets/${pet.id}` })
    if (fetched.status !== 200 || !isDeepStrictEqual(fetched.body, pet)) {
      fail('create-then-get', `200 with the Pet createPet returned: ${created.bodyText}`, fetched)
    }
  },
}
