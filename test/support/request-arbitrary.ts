import { METHODS } from 'node:http'
import fc from 'fast-check'

/** A generated request, as fetch can send it (the raw-bytes fuzzer mutates these further). */
export interface FuzzRequest {
  method: string
  /** Path and query below the origin, e.g. `/v1/pets?limit=3`. */
  target: string
  headers: Array<[string, string]>
  body?: string | Uint8Array
}

/** The fuzz seed: FUZZ_SEED from the environment, or a fixed one so CI runs are reproducible. */
export function fuzzSeed(): number {
  const fromEnv = Number(process.env.FUZZ_SEED)
  return Number.isSafeInteger(fromEnv) && process.env.FUZZ_SEED !== '' ? fromEnv : 20261122
}

const SEGMENTS = [
  'pets',
  'store',
  'categories',
  'order',
  '1',
  '2',
  '50',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '%FF',
  '%2e%2e',
  '..',
  '.',
  '',
  '%00',
  '%2F',
  'PETS',
  '9007199254740993',
  '%E2%82',
  '%C3%A9',
  '%25',
]

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n })).map(String) },
)

const path = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      '/v1/pets',
      '/v1/pets',
      '/v1/pets',
      '/v1/pets',
      '/v1/pets/1',
      '/v1/pets/3',
      '/v1/pets/999',
      '/v1/store/inventory',
      '/v1/categories',
      '/v1',
      '/',
      '/pets',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.array(segment, { minLength: 0, maxLength: 4 }).map((segments) => `/v1/${segments.join('/')}`),
  },
  {
    weight: 1,
    arbitrary: fc.array(segment, { minLength: 0, maxLength: 3 }).map((segments) => `/${segments.join('/')}`),
  },
)

const queryValue = fc.oneof(
  fc.constantFrom(
    '1',
    '20',
    '100',
    '0',
    '101',
    '-1',
    '1.5',
    'abc',
    '',
    'available',
    'pending',
    'sold',
    'SOLD',
    '%FF',
    '%00',
    '1e1',
    '%201',
    '+1',
  ),
  fc.integer().map(String),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
)
const query = fc
  .array(fc.tuple(fc.constantFrom('limit', 'status', 'id', 'api_key', 'limit[]', '%FF', ''), queryValue), {
    maxLength: 2,
  })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`))

/** Header values fetch accepts: no CR, LF or NUL, no surrounding whitespace to be trimmed. */
const headerValue = fc
  .string({ unit: fc.constantFrom(...'abcXYZ019-._~+/= ;,"\t:'.split('')), maxLength: 24 })
  .map((value) => value.trim())

// Weighted towards valid keys, so most requests get past auth into routing and validation.
const authorization = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      'Bearer sandbox-enterprise-key',
      'bearer sandbox-enterprise-key',
      'Bearer sandbox-business-key',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('Bearer sandbox-free-key', 'Bearer sandbox-pro-key') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Bearer nobody',
      'Bearer',
      'Basic dXNlcjpwYXNz',
      'sandbox-enterprise-key',
      'Bearer sandbox-enterprise-key extra',
      'Bearer  sandbox-enterprise-key',
    ),
  },
  { weight: 1, arbitrary: headerValue },
)

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', '') },
  { weight: 1, arbitrary: headerValue },
)

// Written as JSON text from entries, so a `__proto__` key stays a key (an object literal would
// set the prototype instead) and duplicate keys can occur.
const newPetLike = fc
  .tuple(
    fc.option(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('Rex', 'Biscuit', ' Max ', '__proto__') },
        { weight: 2, arbitrary: fc.string({ maxLength: 210 }) },
        { weight: 1, arbitrary: fc.constantFrom('', '   ', 'x'.repeat(201), 12, null) },
      ),
      { nil: undefined, freq: 8 },
    ),
    fc.option(
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 20 }) },
        {
          weight: 1,
          arbitrary: fc.oneof(
            fc.integer({ min: -5, max: 0 }),
            fc.double(),
            fc.constantFrom(Number('9007199254740993'), '1', 'NaN', null),
          ),
        },
      ),
      { nil: undefined, freq: 8 },
    ),
    fc.option(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('available', 'pending', 'sold') },
        { weight: 1, arbitrary: fc.constantFrom('SOLD', '', null, 'lost') },
      ),
      { nil: undefined, freq: 3 },
    ),
    fc.array(
      fc.tuple(
        fc.constantFrom('id', '__proto__', 'constructor', 'prototype', 'name', 'extra'),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      { maxLength: 1 },
    ),
  )
  .map(([name, categoryId, status, extra]) => {
    const entries: Array<[string, unknown]> = []
    if (name !== undefined) entries.push(['name', name])
    if (categoryId !== undefined) entries.push(['categoryId', categoryId])
    if (status !== undefined) entries.push(['status', status])
    entries.push(...extra)
    return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`
  })

const body = fc.oneof(
  { weight: 12, arbitrary: newPetLike },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: newPetLike.chain((json) =>
      fc.nat({ max: Math.max(0, json.length - 1) }).map((cut) => json.slice(0, cut)),
    ),
  },
)

const method = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'),
  },
  // Every other method node's parser knows and fetch can carry (it forbids CONNECT, TRACE, TRACK).
  // Unknown tokens never reach a handler: node answers them 400 (the corpus covers that) and
  // msw's interceptor lets them through to the network in-process.
  { weight: 1, arbitrary: fc.constantFrom(...METHODS.filter((name) => !['CONNECT', 'TRACE', 'TRACK'].includes(name))) },
)

/**
 * Requests a client could send: methods, paths (with percent-encoding tricks), query strings,
 * Authorization variants, content types and bodies, mostly near the contract so they reach deep.
 */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method,
    path,
    query,
    authorization,
    contentType,
    body: fc.option(body, { nil: undefined, freq: 6 }),
    extra: fc.option(
      fc.array(
        fc.tuple(
          fc.constantFrom('X-Fuzz', 'Accept', 'Origin', 'X-Forwarded-For', 'Access-Control-Request-Method'),
          headerValue,
        ),
        {
          minLength: 1,
          maxLength: 2,
        },
      ),
      { nil: [], freq: 3 },
    ),
  })
  .map(({ method, path, query, authorization, contentType, body, extra }) => {
    const headers: Array<[string, string]> = [...extra]
    if (authorization !== undefined) headers.push(['Authorization', authorization])
    if (contentType !== undefined) headers.push(['Content-Type', contentType])
    // fetch sends no body with GET or HEAD.
    const withBody = body !== undefined && method !== 'GET' && method !== 'HEAD'
    return { method, target: `${path}${query}`, headers, ...(withBody ? { body } : {}) }
  })
