import fc from 'fast-check'
import { expect, it } from 'vitest'
import { openapiDocument } from '../../src/core/contract/openapi-document.js'
import { HttpError } from '../../src/core/errors/http-error.js'
import { createRequestValidator, type RequestToValidate } from '../../src/core/validation/create-request-validator.js'
import { createPrismRequestValidator } from '../support/create-prism-request-validator.js'

// The sandbox validates with Ajv alone, in Node and in the browser; prism-http, which validates
// the same document, is the oracle: the two must accept the same everyday requests and refuse
// the others naming the same fields (in the words of the sandbox's one describer), and on odd
// inputs Ajv must never accept what prism refuses.
const prism = createPrismRequestValidator(openapiDocument)
const sandbox = createRequestValidator(openapiDocument)

const cases: Array<[operationId: string, request: RequestToValidate]> = [
  ['listPets', { path: '/pets', query: {} }],
  ['listPets', { path: '/pets', query: { limit: '1', status: 'sold' } }],
  ['listPets', { path: '/pets', query: { limit: '100' } }],
  ['listPets', { path: '/pets', query: { limit: '0' } }],
  ['listPets', { path: '/pets', query: { limit: '101' } }],
  ['listPets', { path: '/pets', query: { limit: 'abc' } }],
  ['listPets', { path: '/pets', query: { limit: '2.5' } }],
  ['listPets', { path: '/pets', query: { status: 'adopted' } }],
  ['listPets', { path: '/pets', query: { limit: '0', status: 'adopted' } }],
  ['listPets', { path: '/pets', query: { unknown: 'x' } }],
  ['getPet', { path: '/pets/1', query: {} }],
  ['getPet', { path: '/pets/abc', query: {} }],
  ['getPet', { path: '/pets/0', query: {} }],
  ['getPet', { path: '/pets/-3', query: {} }],
  ['getPet', { path: '/pets/9007199254740993', query: {} }],
  ['getPet', { path: '/pets/99999999999999999999', query: {} }],
  ['getPet', { path: '/pets/1e3', query: {} }],
  ['createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 1 } }],
  ['createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 1, status: 'pending', extra: true } }],
  ['createPet', { path: '/pets', query: {}, body: {} }],
  ['createPet', { path: '/pets', query: {}, body: { name: 'Rex' } }],
  ['createPet', { path: '/pets', query: {}, body: { name: '', categoryId: 1 } }],
  ['createPet', { path: '/pets', query: {}, body: { name: '   ', categoryId: 1 } }],
  ['createPet', { path: '/pets', query: {}, body: { name: 7, categoryId: '1' } }],
  ['createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 0 } }],
  ['createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 1.5 } }],
  ['createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 1, status: 'adopted' } }],
]

/** 'accepted', or the refusal with the fields it names (a D3 syntax refusal with its words, alike in both). */
async function outcome(
  validator: { fields(id: string, request: RequestToValidate): string[] | Promise<string[]> },
  operationId: string,
  request: RequestToValidate,
) {
  try {
    const fields = await validator.fields(operationId, request)
    return fields.length === 0 ? 'accepted' : `400 invalid_request at ${fields.join(', ')}`
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    return `${error.status} ${error.code}: ${error.message}`
  }
}

const sandboxFields = {
  fields: (operationId: string, request: RequestToValidate) =>
    [...new Set(sandbox.issues(operationId, request).map(({ field }) => field))].sort(),
}

it('accepts and refuses the same requests as the prism validator, naming the same fields', async () => {
  const differences: string[] = []
  let refusals = 0
  for (const [operationId, request] of cases) {
    const [expected, actual] = await Promise.all([
      outcome(prism, operationId, request),
      outcome(sandboxFields, operationId, request),
    ])
    if (expected !== 'accepted') refusals++
    if (expected !== actual)
      differences.push(`${operationId} ${JSON.stringify(request)}\n  prism:   ${expected}\n  sandbox: ${actual}`)
  }
  expect(differences.join('\n')).toBe('')
  // The table exercises refusals, not only requests both let through.
  expect(refusals).toBeGreaterThan(10)
})

it('names the parameter and its bounds', () => {
  expect(() => sandbox.validate('listPets', { path: '/pets', query: { limit: '0' } })).toThrow(
    'limit must be between 1 and 100',
  )
})

it('agrees with the prism validator on generated query strings and bodies', async () => {
  const text = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.integer({ min: -5, max: 200 }).map(String),
    fc.double({ noNaN: true, min: -10, max: 200 }).map(String),
    fc.constantFrom('available', 'pending', 'sold', 'Sold', ''),
  )
  const nonEmpty = text.filter((candidate) => candidate !== '')
  const value = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.integer({ min: -3, max: 2 ** 53 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('available', 'pending', 'sold'),
    fc.array(fc.integer(), { maxLength: 2 }),
  )
  const request = fc.oneof(
    // Empty values (`?limit=`) are left out: prism lets them through, see the next test.
    fc
      .record({ limit: nonEmpty, status: nonEmpty }, { requiredKeys: [] })
      .map((query): [string, RequestToValidate] => ['listPets', { path: '/pets', query }]),
    text.map((id): [string, RequestToValidate] => [
      'getPet',
      { path: `/pets/${encodeURIComponent(id) || '1'}`, query: {} },
    ]),
    fc
      .record({ name: value, categoryId: value, status: value, extra: value }, { requiredKeys: [] })
      .map((body): [string, RequestToValidate] => ['createPet', { path: '/pets', query: {}, body }]),
  )
  await fc.assert(
    fc.asyncProperty(request, async ([operationId, input]) => {
      const expected = await outcome(prism, operationId, input)
      expect(await outcome(sandboxFields, operationId, input)).toBe(expected)
    }),
    { numRuns: 300 },
  )
})

it('refuses empty query values and non-decimal integers (D3)', async () => {
  // Prism alone would coerce `?limit=` to absent and `1e3` to 1000; the syntax check before it
  // refuses them, in the sandbox and in the oracle.
  for (const validator of [sandboxFields, prism]) {
    expect(await outcome(validator, 'listPets', { path: '/pets', query: { limit: '' } })).toContain(
      'limit must not be empty',
    )
    expect(await outcome(validator, 'listPets', { path: '/pets', query: { status: '' } })).toContain(
      'status must not be empty',
    )
    expect(await outcome(validator, 'getPet', { path: '/pets/1e3', query: {} })).toContain('petId must be an integer')
    // As numbers 2^63 and 2^63-1 are one value: an int64 is judged on its digits (D37).
    for (const petId of ['9223372036854775808', '-9223372036854775809', '99999999999999999999']) {
      expect(await outcome(validator, 'getPet', { path: `/pets/${petId}`, query: {} })).toBe(
        '400 invalid_request: petId must be an int64, from -9223372036854775808 to 9223372036854775807',
      )
    }
  }
})

const prismAccepts = (operationId: string, request: RequestToValidate) =>
  prism.validate(operationId, request).then(
    () => true,
    () => false,
  )

const numberish = fc.oneof(
  fc.integer({ min: -3, max: 130 }).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.constantFrom(
    '',
    ' 5',
    '05',
    '+5',
    '1e1',
    '1.0',
    '0x10',
    '9007199254740991',
    '9007199254740992',
    '2147483648',
    'NaN',
    'sold',
  ),
)
const queryValue = fc.oneof(
  numberish,
  fc.constantFrom('available', 'pending', 'sold', 'Sold', 'lost'),
  fc.string(),
  fc.array(numberish, { minLength: 2, maxLength: 3 }),
)
const query = fc.dictionary(fc.constantFrom('limit', 'status', 'Limit', 'offset'), queryValue, { maxKeys: 3 })
const anyJson = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
)
const body = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.string(), fc.constantFrom('Rex', ' ', '\t\n', '🐶', ''), anyJson),
      categoryId: fc.oneof(
        fc.integer(),
        fc.constantFrom(1, 0, -1, 1.5, 9007199254740991, 9007199254740992, 2 ** 63),
        anyJson,
      ),
      status: fc.oneof(fc.constantFrom('available', 'pending', 'sold', 'lost'), anyJson),
      id: anyJson,
      extra: anyJson,
    },
    { requiredKeys: [] },
  ),
  anyJson,
)

const request = fc.oneof(
  query.map((q): [string, RequestToValidate] => ['listPets', { path: '/pets', query: q }]),
  fc
    .tuple(numberish, query)
    .map(([id, q]): [string, RequestToValidate] => ['getPet', { path: `/pets/${id}`, query: q }]),
  fc
    .tuple(numberish, numberish)
    .map(([a, b]): [string, RequestToValidate] => ['getPet', { path: `/pets/${a}/${b}`, query: {} }]),
  body.map((b): [string, RequestToValidate] => ['createPet', { path: '/pets', query: {}, body: b }]),
)

it('accepts only requests that prism accepts, on odd inputs too', async () => {
  await fc.assert(
    fc.asyncProperty(request, async ([operationId, input]) => {
      if ((await outcome(sandboxFields, operationId, input)) === 'accepted')
        expect(await prismAccepts(operationId, input)).toBe(true)
    }),
    { numRuns: 3000 },
  )
})

it('accepts the everyday valid requests', async () => {
  for (const [operationId, input] of [
    ['listPets', { path: '/pets', query: {} }],
    ['listPets', { path: '/pets', query: { limit: '100', status: 'sold' } }],
    ['getPet', { path: '/pets/9007199254740991', query: {} }],
    // Any int64, though no pet has it: a 404, not a 400 (D37).
    ['getPet', { path: '/pets/0', query: {} }],
    ['getPet', { path: '/pets/-1', query: {} }],
    ['getPet', { path: '/pets/9223372036854775807', query: {} }],
    ['getPet', { path: '/pets/-9223372036854775808', query: {} }],
    ['createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 2, status: 'pending', id: 7 } }],
    ['createPet', { path: '/pets', query: {}, body: { name: ' Rex ', categoryId: 1 } }],
  ] as const)
    expect(await outcome(sandboxFields, operationId, input)).toBe('accepted')
})

it('gives the same verdict for a request it remembers valid, and still refuses every invalid one', () => {
  const remembering = createRequestValidator(openapiDocument)
  const verdict = (operationId: string, request: RequestToValidate, target: string) => {
    try {
      const made = remembering.readValid(
        operationId,
        target,
        () => request,
        () => ({ target }),
      )
      expect(made.target).toBe(target)
      return made
    } catch (error) {
      return (error as HttpError).message
    }
  }
  // More distinct valid targets than it remembers, each asked twice, with invalid ones between.
  for (let limit = 1; limit <= 100; limit++) {
    for (let round = 0; round < 12; round++) {
      const target = `/pets?limit=${limit}&r=${round}`
      const request = { path: '/pets', query: { limit: String(limit), r: String(round) } }
      const first = verdict('listPets', request, target)
      expect(first).toEqual({ target })
      // A target remembered valid gives back what was read of it, unread again.
      expect(verdict('listPets', request, target)).toBe(first)
    }
    const refused = { path: '/pets', query: { limit: String(limit + 100) } }
    const target = `/pets?limit=${limit + 100}`
    expect(verdict('listPets', refused, target)).toBe('limit must be between 1 and 100')
    expect(verdict('listPets', refused, target)).toBe('limit must be between 1 and 100')
  }
  // The same target under another operation is checked on its own.
  expect(verdict('listPets', { path: '/pets', query: {} }, '/pets/abc')).toEqual({ target: '/pets/abc' })
  expect(verdict('getPet', { path: '/pets/abc', query: {} }, '/pets/abc')).toBeTypeOf('string')
})
