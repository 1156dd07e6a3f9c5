import { expect, it } from 'vitest'
import { resolveKeys } from '../../src/core/auth/resolve-keys.js'
import { DEMO_KEYS } from '../../src/core/auth/demo-keys.js'

it('gives each plan its limits, and lets a key override them', () => {
  expect(
    resolveKeys([
      { key: 'a-free-key', plan: 'free' },
      { key: 'a-pro-key', plan: 'pro' },
      { key: 'a-business-key', plan: 'business', perMinute: 5 },
      { key: 'an-enterprise-key', plan: 'enterprise', perMinute: 7, perDay: 70 },
    ]),
  ).toEqual([
    { key: 'a-free-key', plan: 'free', perMinute: 60, perDay: 1000 },
    { key: 'a-pro-key', plan: 'pro', perMinute: 300, perDay: 10000 },
    { key: 'a-business-key', plan: 'business', perMinute: 5, perDay: 100000 },
    { key: 'an-enterprise-key', plan: 'enterprise', perMinute: 7, perDay: 70 },
  ])
})

it('resolves the demo keys, one per plan', () => {
  expect(resolveKeys(DEMO_KEYS).map((key) => key.plan)).toEqual(['free', 'pro', 'business', 'enterprise'])
})

it.each([
  ['not an array', {}, 'keys must be an array'],
  ['empty', [], 'at least one key'],
  ['a string entry', ['k'], 'keys[0] must be an object'],
  ['an unknown plan', [{ key: 'kkk', plan: 'gold' }], 'keys[0].plan must be one of free, pro, business, enterprise'],
  ['enterprise without perDay', [{ key: 'kkk', plan: 'enterprise', perMinute: 1 }], 'keys[0].perDay is required for enterprise keys'],
  ['a fractional limit', [{ key: 'kkk', plan: 'free', perDay: 1.5 }], 'keys[0].perDay must be a whole number of 1 or more'],
  ['a zero limit', [{ key: 'kkk', plan: 'free', perMinute: 0 }], 'keys[0].perMinute must be a whole number'],
  ['a key with a space', [{ key: 'a b', plan: 'free' }], 'keys[0].key must be a non-empty token'],
  [
    'a repeated key',
    [
      { key: 'same', plan: 'free' },
      { key: 'same', plan: 'pro' },
    ],
    'keys[1].key repeats an earlier key',
  ],
])('refuses %s, naming the entry', (_, input, message) => {
  expect(() => resolveKeys(input)).toThrow(message)
})
