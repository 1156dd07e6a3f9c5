import type { IncomingMessage } from 'node:http'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createRequestUrls, requestUrl } from '../../src/node/server/unservable-request.js'

const ORIGIN = 'http://127.0.0.1:4010'
const head = (url: string) => ({ url }) as IncomingMessage

it('parses every target as requestUrl does, kept or not', () => {
  const urls = createRequestUrls(ORIGIN)
  const targets = fc.oneof(
    fc.constantFrom('/v1/pets?limit=20', '//evil.example/x', 'http://other.example/v1/pets', '/a/../b?%zz', '*'),
    fc.webPath(),
    fc.string({ maxLength: 600 }),
  )
  fc.assert(
    fc.property(fc.array(targets, { maxLength: 40 }), (seen) => {
      for (const target of [...seen, ...seen])
        expect(urls(head(target))?.href).toBe(requestUrl(head(target), ORIGIN)?.href)
    }),
    { numRuns: 200 },
  )
})

it('gives the URL it parsed while the target keeps coming, and keeps no long one', () => {
  const urls = createRequestUrls(ORIGIN)
  const first = urls(head('/v1/pets?limit=20'))
  expect(urls(head('/v1/pets?limit=20'))).toBe(first)
  expect(urls(head('/v1/pets?limit=21'))).not.toBe(first)
  const long = `/v1/pets?name=${'x'.repeat(600)}`
  expect(urls(head(long))).not.toBe(urls(head(long)))
})

it('forgets the least recent target beyond the ones it keeps', () => {
  const urls = createRequestUrls(ORIGIN)
  const first = urls(head('/v1/pets/0'))
  for (let id = 1; id <= 64; id++) urls(head(`/v1/pets/${id}`))
  expect(urls(head('/v1/pets/64'))).toBe(urls(head('/v1/pets/64')))
  expect(urls(head('/v1/pets/0'))).not.toBe(first)
})

it('parses a target again once its kept URL was changed', () => {
  const urls = createRequestUrls(ORIGIN)
  const changed = urls(head('/v1/pets?limit=20'))!
  changed.searchParams.set('limit', '3')
  const again = urls(head('/v1/pets?limit=20'))
  expect(again).not.toBe(changed)
  expect(again?.href).toBe(`${ORIGIN}/v1/pets?limit=20`)
})
