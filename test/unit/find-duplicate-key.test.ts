import { expect, it } from 'vitest'
import { findDuplicateKey } from '../../src/core/validation/find-duplicate-key.js'

it.each([
  ['{"a":1,"b":2}', undefined],
  ['{"a":1,"b":{"a":2}}', undefined],
  ['[{"a":1},{"a":2}]', undefined],
  ['{"a":"\\"a\\":","b":1}', undefined],
  ['{"a":1,"a":2}', 'a'],
  ['{"a":1,"\\u0061":2}', 'a'],
  ['{"x":{"a":1,"b":[1,{"c":1,"c":2}]}}', 'c'],
  ['{"__proto__":1,"__proto__":2}', '__proto__'],
  ['{"a\\\\":1,"a\\\\":2}', 'a\\'],
])('finds the duplicate key of %s: %s', (text, duplicate) => {
  expect(findDuplicateKey(text)).toBe(duplicate)
})

it('scans 100000 levels of nesting without recursion', () => {
  const text = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`
  expect(findDuplicateKey(text)).toBeUndefined()
  expect(findDuplicateKey(`${text.slice(0, -1)},"a":2}`)).toBe('a')
})
