// A frontend's API client for the Animal Store API, of the kind the sandbox stands in for: typed
// by the contract (openapi-fetch over the types petstore-sandbox generates from its OpenAPI
// document), and returning what a UI needs: the data or the Error body, plus the rate-limit and
// deprecation headers. Nothing here knows about the sandbox or msw.
import createClient from 'openapi-fetch'
import type { ApiError, NewPet, Pet, PetStatus, paths } from 'petstore-sandbox'

/** What the `X-RateLimit-*` (and, on a 429, `Retry-After`) headers of a response said. */
export interface RateLimit {
  limit: number
  remaining: number
  /** When the window (or a ban) ends. */
  resetsAt: Date
  retryAfterSeconds: number | undefined
}

/** What `Deprecation`, `Sunset` and `Link` said, on the responses of a deprecated operation. */
export interface Deprecation {
  since: Date
  sunset: Date
  successor: string | undefined
}

export type Result<T> =
  | { ok: true; data: T; rateLimit: RateLimit; deprecation?: Deprecation }
  | { ok: false; error: ApiError; rateLimit: RateLimit; deprecation?: Deprecation }

export interface PetsClientOptions {
  /** e.g. `https://staging.animal-store.example/v1` */
  baseUrl: string
  apiKey: string
}

export function createPetsClient({ baseUrl, apiKey }: PetsClientOptions) {
  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    // Look fetch up on every call rather than once now, so whatever is installed later (msw in a
    // test, a polyfill) is the fetch used.
    fetch: (request) => globalThis.fetch(request),
  })

  return {
    async listPets(query: { status?: PetStatus; limit?: number } = {}): Promise<Result<Pet[]>> {
      return toResult(await client.GET('/pets', { params: { query } }))
    },
    async createPet(pet: NewPet): Promise<Result<Pet>> {
      return toResult(await client.POST('/pets', { body: pet }))
    },
    /** Deprecated by the API: prefer `listPets`. Kept while the backend still serves it. */
    async getPet(petId: number): Promise<Result<Pet>> {
      return toResult(await client.GET('/pets/{petId}', { params: { path: { petId } } }))
    },
  }
}

export type PetsClient = ReturnType<typeof createPetsClient>

function toResult<T>(answer: { data?: T; error?: ApiError; response: Response }): Result<T> {
  const { headers } = answer.response
  const rateLimit: RateLimit = {
    limit: Number(headers.get('X-RateLimit-Limit')),
    remaining: Number(headers.get('X-RateLimit-Remaining')),
    resetsAt: new Date(Number(headers.get('X-RateLimit-Reset')) * 1000),
    retryAfterSeconds: headers.has('Retry-After') ? Number(headers.get('Retry-After')) : undefined,
  }
  const deprecation = readDeprecation(headers)
  const extra = deprecation === undefined ? {} : { deprecation }
  return answer.error !== undefined
    ? { ok: false, error: answer.error, rateLimit, ...extra }
    : { ok: true, data: answer.data as T, rateLimit, ...extra }
}

function readDeprecation(headers: Headers): Deprecation | undefined {
  // RFC 9745: `Deprecation: @<unix seconds>`; RFC 8594: `Sunset: <HTTP date>`.
  const since = /^@(-?\d+)$/.exec(headers.get('Deprecation') ?? '')
  const sunset = headers.get('Sunset')
  if (since === null || sunset === null) return undefined
  const successor = /<([^>]+)>\s*;\s*rel="?successor-version"?/.exec(headers.get('Link') ?? '')?.[1]
  return { since: new Date(Number(since[1]) * 1000), sunset: new Date(sunset), successor }
}
