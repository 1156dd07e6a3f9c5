import fc from 'fast-check'
import { expect, it } from 'vitest'
import { queryOf } from '../../src/core/http/query-of.js'

// What URLSearchParams reads, grouped the same way: the reference the fast path must match.
function reference(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name)
    Object.defineProperty(query, name, {
      value: values.length === 1 ? values[0]! : values,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return query
}

const piece = fc.oneof(
  fc.constantFrom(
    'limit',
    'status',
    'sold',
    '1',
    '',
    '=',
    '&',
    '%',
    '%2',
    '%41',
    '%zz',
    '%E2%82%AC',
    '+',
    '__proto__',
    'constructor',
    'a b',
    '€',
    '#',
    '?',
  ),
  fc.string({ maxLength: 4 }),
)

it('reads every query string as URLSearchParams does, with and without % and +', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const url = new URL(`http://sandbox.test/v1/pets?${pieces.join('')}`)
      expect(queryOf(url)).toEqual(reference(url))
    }),
    { numRuns: 3000, seed: 20261123 },
  )
})

it('gathers a repeated name in order and keeps empty values', () => {
  expect(queryOf(new URL('http://x/?tag=a&limit=&tag=b&&flag'))).toEqual({ tag: ['a', 'b'], limit: '', flag: '' })
  expect(queryOf(new URL('http://x/'))).toEqual({})
})

it("takes names of Object.prototype's properties as parameters like any other", () => {
  const query = queryOf(new URL('http://x/?constructor=1&__proto__=a&__proto__=b&toString='))
  expect(Object.getPrototypeOf(query)).toBe(Object.prototype)
  expect(Object.entries(query)).toEqual([
    ['constructor', '1'],
    ['__proto__', ['a', 'b']],
    ['toString', ''],
  ])
})
