/** Names a promise's source: the spec's words (`seed`) or a decision (fails under `--strict`). */
export type PromiseSource = { kind: 'seed'; sections: string } | { kind: 'decision'; decisions: string[] }

/** One promise a backend claiming the API is held to. */
export interface PromiseDefinition {
  id: string
  title: string
  source: PromiseSource
  /** What the user must allow for it to be checked. */
  needs?: 'writes' | 'quota'
}

const seed = (sections: string): PromiseSource => ({ kind: 'seed', sections })
const decision = (...decisions: string[]): PromiseSource => ({ kind: 'decision', decisions })

/** Lists the promises `verify` checks and `proxy` watches, seed first, by stable ids (docs/verify-and-proxy.md). */
export const VERIFY_PROMISES: readonly PromiseDefinition[] = [
  {
    id: 'matches-contract',
    title:
      "every answer has a status, the headers and a JSON body of the spec's own terms (fixtures/spec-openapi.yaml)",
    source: seed('§2 Resources and their fields, §4 Endpoints'),
  },
  {
    id: 'error-bodies',
    title: 'every error but a 429 is an Error body whose status is the HTTP status',
    source: seed('§2 Error, §7 Errors'),
  },
  { id: 'unauthorized-without-key', title: 'a request without a key gets 401', source: seed('§5 Authentication') },
  {
    id: 'unauthorized-with-wrong-key',
    title: 'a request with a wrong key gets 401',
    source: seed('§5 Authentication'),
  },
  {
    id: 'invalid-new-pet-refused',
    title: 'createPet answers 400 to each NewPet the spec rules out',
    source: seed('§4.2 Add an animal, §7 Errors'),
    needs: 'writes',
  },
  {
    id: 'limit-default-and-bounds',
    title: 'listPets returns 20 pets by default and never more than limit',
    source: seed('§4.1 List animals, §8 Other limits'),
  },
  {
    id: 'status-filter',
    title: 'listPets with status returns only, and all, the pets of that status',
    source: seed('§4.1 List animals'),
  },
  {
    id: 'create-then-get',
    title: 'createPet answers 201 with the Pet it stored, which getPet then returns',
    source: seed('§1, §4.2 Add an animal, §4.3 Get an animal'),
    needs: 'writes',
  },
  {
    id: 'get-pet-not-found',
    title: 'getPet answers 404 for an id that does not exist, and 200 for one listPets returned',
    source: seed('§4.3 Get an animal, §7 Errors'),
  },
  {
    id: 'rate-limit-headers',
    title: 'every answer carries X-RateLimit-Limit, -Remaining and -Reset as integers',
    source: seed('§8 Rate-limit response headers'),
  },
  {
    id: 'remaining-counts-down',
    title: 'X-RateLimit-Remaining goes down by one per request',
    source: seed('§8 Rate-limit response headers'),
  },
  {
    id: 'reset-in-future',
    title: 'X-RateLimit-Reset is a Unix time in the future',
    source: seed('§8 Rate-limit response headers'),
  },
  {
    id: 'quota-429-and-recovery',
    title: 'a spent quota gets 429 with Retry-After, and requests succeed again after waiting it',
    source: seed('§8 Behaviour when the limit is exceeded'),
    needs: 'quota',
  },
  {
    id: 'sandbox-contract',
    title:
      "every answer also keeps fixtures/openapi.yaml's stricter constraints: " +
      'Error codes, name, categoryId, ids from 1, no extra Pet fields',
    source: decision('D2', 'D5', 'D6', 'D7'),
  },
  {
    id: 'invalid-query-refused',
    title: 'listPets answers 400 to a limit outside 1..100 or not an integer, and to an unknown status',
    source: decision('D3'),
  },
  { id: 'ascending-ids', title: 'listPets returns pets in ascending id order', source: decision('D8') },
  {
    id: 'deprecation-headers',
    title:
      'getPet answers carry Deprecation: @<seconds>, the Sunset of 5 Dec 2030 and a successor Link;' +
      ' no other operation does',
    source: decision('D18'),
  },
  { id: 'retry-after-seconds', title: 'Retry-After is in whole seconds, at least 1', source: decision('D14') },
]

/** How a report names a promise's source: `seed §8 ...` or `D3`. */
export function describeSource(source: PromiseSource): string {
  return source.kind === 'seed' ? `seed ${source.sections}` : source.decisions.join(', ')
}
