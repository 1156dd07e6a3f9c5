import { expect, it } from 'vitest'
import { resolveDemoKeys, resolveKeys } from '../../src/core/auth/resolve-keys.js'
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

it('resolves the demo keys, one per plan, valid against the schema they skip at start-up', () => {
  expect(resolveKeys(DEMO_KEYS).map((key) => key.plan)).toEqual(['free', 'pro', 'business', 'enterprise'])
  expect(resolveDemoKeys()).toEqual(resolveKeys(DEMO_KEYS))
})

const TOKEN_RULE =
  'must be a bearer token (RFC 6750 b64token) of 8 to 256 characters: letters, digits and - . _ ~ + /, with = only at the end'

it.each([
  ['not an array', {}, 'keys must be an array'],
  ['empty', [], 'keys must hold at least 1 entry'],
  ['a string entry', ['k'], 'keys[0] must be an object'],
  [
    'an unknown plan',
    [{ key: 'k-one-two', plan: 'gold' }],
    'keys[0].plan must be one of free, pro, business, enterprise',
  ],
  [
    'enterprise without perDay',
    [{ key: 'k-one-two', plan: 'enterprise', perMinute: 1 }],
    'keys[0].perDay is required when plan is enterprise',
  ],
  ['a fractional limit', [{ key: 'k-one-two', plan: 'free', perDay: 1.5 }], 'keys[0].perDay must be an integer'],
  ['a zero limit', [{ key: 'k-one-two', plan: 'free', perMinute: 0 }], 'keys[0].perMinute must be at least 1'],
  [
    'a limit past 2^53-1',
    [{ key: 'k-one-two', plan: 'free', perMinute: 2 ** 53 }],
    'keys[0].perMinute must be at most 9007199254740991',
  ],
  ['a key with a space', [{ key: 'a b c d e', plan: 'free' }], `keys[0].key ${TOKEN_RULE}`],
  ['a one-character key', [{ key: '/', plan: 'free' }], `keys[0].key ${TOKEN_RULE}`],
  ['a key of 7 characters', [{ key: 'abcdefg', plan: 'free' }], `keys[0].key ${TOKEN_RULE}`],
  ['a key of 257 characters', [{ key: 'k'.repeat(257), plan: 'free' }], `keys[0].key ${TOKEN_RULE}`],
  ['a key with = inside', [{ key: 'abc=defgh', plan: 'free' }], `keys[0].key ${TOKEN_RULE}`],
  [
    'an unknown field',
    [{ key: 'k-one-two', plan: 'free', perminute: 5 }],
    'keys[0].perminute: unknown field; did you mean perMinute?',
  ],
  [
    'a repeated key',
    [
      { key: 'same-key', plan: 'free' },
      { key: 'same-key', plan: 'pro' },
    ],
    'keys[1].key repeats an earlier key',
  ],
])('refuses %s, naming the entry', (_, input, message) => {
  expect(() => resolveKeys(input)).toThrow(message)
})

it('takes every bearer token of 8 to 256 characters that RFC 6750 allows', () => {
  for (const key of ['abcdefgh', 'A-Z.a_z~0+9/', 'dG9rZW4tdmFsdWU=', 'dG9rZW4tdmFsdWU==', 'k'.repeat(256)]) {
    expect(resolveKeys([{ key, plan: 'free' }])[0]!.key, key).toBe(key)
  }
})

it('never quotes a key in a message, even one pasted where a field name goes', () => {
  const secret = 'sk-live-0123456789abcdef'
  expect(() => resolveKeys([{ key: 'k-one-two', plan: 'free', [secret]: 1 }])).toThrow(
    'keys[0] has an unknown field; known fields: key, plan, perMinute, perDay',
  )
  for (const key of [`${secret} `, `${secret}!`]) {
    expect(() => resolveKeys([{ key, plan: 'free' }])).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(secret) }),
    )
  }
})
