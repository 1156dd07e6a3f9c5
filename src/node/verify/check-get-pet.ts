import type { Scenario } from './scenario.js'

/** An id no backend holds: the largest integer JSON clients read exactly. */
const UNKNOWN_ID = Number.MAX_SAFE_INTEGER

/** 404 for an unknown id and 200 for a listed one; both answers carry the deprecation headers (checked on every answer). */
export const checkGetPet: Scenario = {
  promises: ['get-pet-not-found', 'deprecation-headers'],
  requests: 2,
  async run({ client, fail, knownPetId }) {
    const missing = await client.send({ path: `/pets/${UNKNOWN_ID}` })
    if (missing.status !== 404) fail('get-pet-not-found', `404 for pet ${UNKNOWN_ID}`, missing)
    if (knownPetId === undefined) return
    const found = await client.send({ path: `/pets/${knownPetId}` })
    if (found.status !== 200) fail('deprecation-headers', `200 for pet ${knownPetId}, which listPets returned`, found)
  },
}
