import { expect, it } from 'vitest'
import { parseBearer } from '../../src/core/auth/create-key-ring.js'
import { constantTimeEqual } from '../../src/core/auth/constant-time-equal.js'

it.each([
  ['Bearer abc123', 'abc123'],
  ['bearer abc123', 'abc123'],
  ['BEARER abc-._~+/123==', 'abc-._~+/123=='],
  ['Bearer  abc', 'abc'],
])('reads the token of %j', (header, token) => {
  expect(parseBearer(header)).toBe(token)
})

it.each([
  null,
  '',
  'Bearer',
  'Bearer ',
  'Basic abc',
  'abc',
  'Bearer a b',
  'Bearer a,b',
  'Bearer\tabc',
  'Bearerabc',
  'Bearer ab=c',
])('finds no token in %j', (header) => {
  expect(parseBearer(header)).toBeUndefined()
})

it('compares strings for equality without caring where they differ', () => {
  expect(constantTimeEqual('sandbox-free-key', 'sandbox-free-key')).toBe(true)
  expect(constantTimeEqual('sandbox-free-key', 'sandbox-free-kez')).toBe(false)
  expect(constantTimeEqual('sandbox-free-key', 'sandbox-free-ke')).toBe(false)
  expect(constantTimeEqual('', '')).toBe(true)
  expect(constantTimeEqual('a', '')).toBe(false)
})
