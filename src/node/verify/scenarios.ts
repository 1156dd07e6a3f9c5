import { isDeepStrictEqual } from 'node:util'
import { PET_STATUSES } from '../../core/store/pet.js'
import type { PoliteClient } from './client.js'
import { type JudgedExchange, retryAfterSeconds } from './create-exchange-checker.js'
import type { PromiseDefinition } from './promises.js'

/** Lets a scenario send, judge, and hand what it learnt to later ones. */
export interface ScenarioContext {
  client: PoliteClient
  fail(promise: string, expected: string, exchange: JudgedExchange): void
  skip(promise: string, reason: string): void
  /** Tells the user before requests they were not told about. */
  announce(line: string): void
  maxQuotaRequests: number
  sleep: (ms: number) => Promise<void>
  now: () => number
  /** From the listing, for getPet. */
  knownPetId?: number
  /** Set once the quota was spent, so that no 429 means no rate limiting. */
  quotaSpent?: boolean
}

/** A sequence of requests that checks what one answer cannot show by itself. */
export interface Scenario {
  promises: string[]
  /** Counts the requests sent when nothing is retried. */
  requests: number
  needs?: PromiseDefinition['needs']
  run(context: ScenarioContext): Promise<void>
}

/** Names an id no backend holds: the largest integer JSON reads exactly. */
export const UNKNOWN_ID = Number.MAX_SAFE_INTEGER

/** Checks the 401 without a key and with a wrong one (spec §5). */
const checkAuth: Scenario = {
  promises: ['unauthorized-without-key', 'unauthorized-with-wrong-key'],
  requests: 2,
  async run({ client, fail }) {
    const none = await client.send({ path: '/pets', credential: 'none' })
    if (none.status !== 401) fail('unauthorized-without-key', '401 without a key', none)
    const wrong = await client.send({ path: '/pets', credential: 'wrong-key' })
    if (wrong.status !== 401) fail('unauthorized-with-wrong-key', '401 with a wrong key', wrong)
  },
}

type Listing = { pets: Array<{ id: number; status?: string }>; exchange: JudgedExchange }

async function listed(context: ScenarioContext, path: string): Promise<Listing | undefined> {
  const exchange = await context.client.send({ path })
  if (exchange.status === 200 && Array.isArray(exchange.body))
    return { pets: exchange.body as Listing['pets'], exchange }
  context.fail('limit-default-and-bounds', '200 with an array of pets', exchange)
  return undefined
}

/** Checks `limit` and the status filter against one full listing (spec §4.1). */
const checkListing: Scenario = {
  promises: ['limit-default-and-bounds', 'status-filter'],
  requests: 3 + PET_STATUSES.length,
  async run(context) {
    const { fail } = context
    const all = await listed(context, '/pets?limit=100')
    if (all === undefined) return
    context.knownPetId = all.pets[0]?.id
    const byDefault = await listed(context, '/pets')
    // Fewer only: others may create pets meanwhile.
    if (byDefault !== undefined && byDefault.pets.length < Math.min(20, all.pets.length)) {
      fail(
        'limit-default-and-bounds',
        `${Math.min(20, all.pets.length)} pets without limit (default 20), got ${byDefault.pets.length}`,
        byDefault.exchange,
      )
    }
    const one = await listed(context, '/pets?limit=1')
    if (one !== undefined && one.pets.length < Math.min(1, all.pets.length)) {
      fail(
        'limit-default-and-bounds',
        `${Math.min(1, all.pets.length)} pet for limit=1, got ${one.pets.length}`,
        one.exchange,
      )
    }
    for (const status of PET_STATUSES) {
      const filtered = await listed(context, `/pets?status=${status}&limit=100`)
      // Under 100 pets the full listing holds them all.
      if (filtered === undefined || all.pets.length >= 100) continue
      const returned = new Set(filtered.pets.map((pet) => pet.id))
      const missing = all.pets.filter((pet) => pet.status === status && !returned.has(pet.id)).map((pet) => pet.id)
      if (missing.length > 0) {
        fail(
          'status-filter',
          `every pet with status ${status} of the full listing, missing ${missing.slice(0, 5).join(', ')}`,
          filtered.exchange,
        )
      }
    }
  },
}

const INVALID_LIMITS = ['0', '101', '-1', 'abc', '1.5']
const INVALID_STATUSES = ['adopted', 'SOLD']

/** Checks the 400 for each listPets parameter outside the spec's constraints (§4.1, D3). */
const checkInvalidQueries: Scenario = {
  promises: ['invalid-query-refused'],
  requests: INVALID_LIMITS.length + INVALID_STATUSES.length,
  async run({ client, fail }) {
    for (const query of [
      ...INVALID_LIMITS.map((value) => `limit=${value}`),
      ...INVALID_STATUSES.map((value) => `status=${value}`),
    ]) {
      const exchange = await client.send({ path: `/pets?${query}` })
      if (exchange.status !== 400) fail('invalid-query-refused', `400 for ${query}`, exchange)
    }
  },
}

const INVALID_BODIES: Array<[string, unknown]> = [
  ['an empty object', {}],
  ['no name', { categoryId: 1 }],
  ['no categoryId', { name: 'Verify' }],
  ['a name that is not a string', { name: 42, categoryId: 1 }],
  ['a categoryId that is a string', { name: 'Verify', categoryId: '1' }],
  ['a categoryId that is not an integer', { name: 'Verify', categoryId: 1.5 }],
  ['an unknown status', { name: 'Verify', categoryId: 1, status: 'adopted' }],
  ['an array', [{ name: 'Verify', categoryId: 1 }]],
]

/** Checks the 400 for each NewPet the spec rules out (§2, §4.2); a write, since a backend may store one. */
const checkInvalidNewPets: Scenario = {
  promises: ['invalid-new-pet-refused'],
  requests: INVALID_BODIES.length,
  needs: 'writes',
  async run({ client, fail }) {
    for (const [what, body] of INVALID_BODIES) {
      const exchange = await client.send({ method: 'POST', path: '/pets', body })
      if (exchange.status !== 400) fail('invalid-new-pet-refused', `400 for a NewPet with ${what}`, exchange)
    }
  },
}

/** Checks that createPet answers 201 with the Pet that getPet then returns. */
const checkCreateThenGet: Scenario = {
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

/** Checks the 404 for an unknown id and the 200 for a listed one. */
const checkGetPet: Scenario = {
  promises: ['get-pet-not-found'],
  requests: 2,
  async run({ client, fail, knownPetId }) {
    const missing = await client.send({ path: `/pets/${UNKNOWN_ID}` })
    if (missing.status !== 404) fail('get-pet-not-found', `404 for pet ${UNKNOWN_ID}`, missing)
    if (knownPetId === undefined) return
    const found = await client.send({ path: `/pets/${knownPetId}` })
    if (found.status !== 200) fail('get-pet-not-found', `200 for pet ${knownPetId}, which listPets returned`, found)
  },
}

/** Checks that X-RateLimit-Remaining drops by one; a pair straddling a window's end is sent again once. */
const checkCountDown: Scenario = {
  promises: ['remaining-counts-down'],
  requests: 2,
  async run({ client, fail }) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const first = await client.send({ path: '/pets?limit=1' })
      const second = await client.send({ path: '/pets?limit=1' })
      if (first.headers['x-ratelimit-reset'] !== second.headers['x-ratelimit-reset'] && attempt === 0) continue
      const before = Number(first.headers['x-ratelimit-remaining'])
      const after = Number(second.headers['x-ratelimit-remaining'])
      if (!(after === before - 1))
        fail(
          'remaining-counts-down',
          `X-RateLimit-Remaining ${before - 1} after ${first.headers['x-ratelimit-remaining']}`,
          second,
        )
      return
    }
  },
}

/** Spends the key's window, checks the 429 and waits its Retry-After; stops at the first 429, so no ban follows. */
const spendQuota: Scenario = {
  promises: ['quota-429-and-recovery', 'retry-after-seconds'],
  requests: 1,
  needs: 'quota',
  async run(context) {
    const { client, fail, skip, announce, maxQuotaRequests, sleep, now } = context
    const first = await client.send({ path: '/pets?limit=1', retryAfter429: false })
    const remaining = Number(first.headers['x-ratelimit-remaining'])
    if (first.status !== 429 && !Number.isSafeInteger(remaining)) {
      fail(
        'quota-429-and-recovery',
        'an integer X-RateLimit-Remaining to know how many requests spend the quota',
        first,
      )
      return
    }
    if (remaining > maxQuotaRequests) {
      const reason =
        `the key has ${remaining} requests left in its window, ` + `more than --max-quota-requests ${maxQuotaRequests}`
      for (const promise of ['quota-429-and-recovery', 'retry-after-seconds']) skip(promise, reason)
      return
    }
    announce(`Spending the key's quota: up to ${remaining + 2} more requests`)
    context.quotaSpent = true
    let refused = first.status === 429 ? first : undefined
    for (let sent = 0; refused === undefined && sent <= remaining; sent++) {
      const exchange = await client.send({ path: '/pets?limit=1', retryAfter429: false })
      if (exchange.status === 429) refused = exchange
    }
    if (refused === undefined) {
      fail('quota-429-and-recovery', `a 429 after ${remaining} more requests spent X-RateLimit-Remaining`, first)
      return
    }
    const seconds = retryAfterSeconds(refused.headers['retry-after'], now())
    if (seconds === undefined) return
    if (refused.headers['x-ratelimit-remaining'] !== '0')
      fail('quota-429-and-recovery', 'X-RateLimit-Remaining 0 on the 429', refused)
    await sleep(Math.max(seconds, 1) * 1000)
    const recovered = await client.send({ path: '/pets?limit=1', retryAfter429: false })
    if (recovered.status !== 200)
      fail('quota-429-and-recovery', `200 after waiting Retry-After (${refused.headers['retry-after']})`, recovered)
  },
}

/** Lists the scenarios in order: the listing first, since getPet takes an id it found. */
export const SCENARIOS: readonly Scenario[] = [
  checkAuth,
  checkListing,
  checkInvalidQueries,
  checkInvalidNewPets,
  checkCreateThenGet,
  checkGetPet,
  checkCountDown,
  spendQuota,
]
