import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EXPOSED_HEADERS } from '../dist/core/http/create-cors.js'
import { seedPets } from '../dist/core/store/seed-pets.js'
import { BENCH_KEYS, throwawayDirectory } from './support.mjs'

/**
 * The bytes the sandbox answers to `GET /v1/pets?limit=20` with the default seed: the floor and
 * raw servers send exactly these, so every server of the comparison moves the same payload.
 */
export function constantListBody() {
  return JSON.stringify(Array.from(seedPets(1, 20), (pet, index) => ({ id: index + 1, ...pet })))
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** Returns the headers the sandbox sends with that body to the benchmark key, its quota counting down per answer. */
export function constantListHeaders(body) {
  const limit = BENCH_KEYS[0].perMinute
  let remaining = limit
  return () => ({
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
    'content-type': JSON_CONTENT_TYPE,
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(--remaining),
    'x-ratelimit-reset': String((Math.floor(Date.now() / 60_000) + 1) * 60),
    'content-length': String(body.byteLength),
  })
}

/** Writes json-server's database: the sandbox's 50 start-up pets of the default seed; the file goes when this process exits. */
export function writeJsonServerDb() {
  const file = join(throwawayDirectory('petstore-bench-json-server-'), 'db.json')
  writeFileSync(
    file,
    JSON.stringify({ pets: Array.from(seedPets(1, 50), (pet, index) => ({ id: index + 1, ...pet })) }),
  )
  return file
}

/** Writes WireMock's root: one stub answering `GET /v1/pets?limit=20` with a bearer key by the sandbox's bytes, head and body. */
export function writeWireMockRoot() {
  const directory = throwawayDirectory('petstore-bench-wiremock-')
  const body = constantListBody()
  const {
    'content-length': _length,
    'x-ratelimit-remaining': _remaining,
    ...headers
  } = constantListHeaders(Buffer.from(body))()
  const stub = {
    request: {
      method: 'GET',
      urlPath: '/v1/pets',
      queryParameters: { limit: { equalTo: '20' } },
      headers: { Authorization: { matches: 'Bearer .+' } },
    },
    response: { status: 200, headers, body },
  }
  mkdirSync(join(directory, 'mappings'))
  writeFileSync(join(directory, 'mappings', 'list-pets.json'), JSON.stringify(stub))
  return directory
}
