/** One promise the sandbox keeps and any backend claiming the API is held to. */
export interface PromiseDefinition {
  id: string
  title: string
  /** What the user must allow for the promise to be checked: it writes pets, or spends quota. */
  needs?: 'writes' | 'quota'
}

/**
 * The behavioural contract `verify` checks and `proxy` watches, in report order. Each id is stable:
 * CI reports and the proxy's counters name promises by it (docs/verify-and-proxy.md lists them).
 */
export const VERIFY_PROMISES: readonly PromiseDefinition[] = [
  { id: 'matches-contract', title: 'every answer is valid against fixtures/openapi.yaml: status, headers, JSON body' },
  { id: 'error-bodies', title: 'every error is an Error body whose status equals the HTTP status' },
  { id: 'unauthorized-without-key', title: 'a request without a key gets 401' },
  { id: 'unauthorized-with-wrong-key', title: 'a request with a wrong key gets 401' },
  { id: 'invalid-limit-refused', title: 'listPets answers 400 to each limit outside 1..100 or not an integer' },
  { id: 'invalid-status-refused', title: 'listPets answers 400 to a status outside available, pending, sold' },
  { id: 'invalid-new-pet-refused', title: 'createPet answers 400 to each NewPet the spec rules out', needs: 'writes' },
  { id: 'limit-default-and-bounds', title: 'listPets returns 20 pets by default and never more than limit' },
  { id: 'status-filter', title: 'listPets with status returns only pets of that status' },
  { id: 'ascending-ids', title: 'listPets returns pets in ascending id order' },
  { id: 'create-then-get', title: 'createPet answers 201 with the stored Pet, which getPet then returns', needs: 'writes' },
  { id: 'get-pet-not-found', title: 'getPet answers 404 for an id that does not exist' },
  { id: 'rate-limit-headers', title: 'every answer carries X-RateLimit-Limit, -Remaining and -Reset as integers' },
  { id: 'remaining-counts-down', title: 'X-RateLimit-Remaining goes down by one per request' },
  { id: 'reset-in-future', title: 'X-RateLimit-Reset is a Unix time in the future' },
  { id: 'deprecation-headers', title: 'getPet answers carry Deprecation, the Sunset of 5 Dec 2030 and a successor Link; no other operation does' },
  { id: 'quota-429-and-recovery', title: 'a spent quota gets 429 with Retry-After, and requests succeed again after it', needs: 'quota' },
]
