import fc from 'fast-check'
import { expect, it } from 'vitest'
import { openapiDocument } from '../../src/contract/openapi-document.js'
import { createAjvRequestValidator } from '../../src/policies/create-ajv-request-validator.js'
import { createPrismRequestValidator, type RequestToValidate } from '../../src/policies/create-request-validator.js'

// The Node build lets every request the Ajv validator accepts skip prism, so Ajv must never
// accept what prism refuses: these properties throw odd inputs at both (numbers in every
// spelling, repeated and unknown parameters, bodies of any JSON shape).
const ajv = createAjvRequestValidator(openapiDocument)
const prism = createPrismRequestValidator(openapiDocument)

const prismAccepts = (operationId: string, request: RequestToValidate) =>
  prism.validate(operationId, request).then(() => true, () => false)

const numberish = fc.oneof(
  fc.integer({ min: -3, max: 130 }).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.constantFrom('', ' 5', '05', '+5', '1e1', '1.0', '0x10', '9007199254740991', '9007199254740992', '2147483648', 'NaN', 'sold'),
)
const queryValue = fc.oneof(numberish, fc.constantFrom('available', 'pending', 'sold', 'Sold', 'lost'), fc.string(), fc.array(numberish, { minLength: 2, maxLength: 3 }))
const query = fc.dictionary(fc.constantFrom('limit', 'status', 'Limit', 'offset'), queryValue, { maxKeys: 3 })
const anyJson = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}))
const body = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.string(), fc.constantFrom('Rex', ' ', '\t\n', '🐶', ''), anyJson),
      categoryId: fc.oneof(fc.integer(), fc.constantFrom(1, 0, -1, 1.5, 9007199254740991, 9007199254740992, 2 ** 63), anyJson),
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
  fc.tuple(numberish, query).map(([id, q]): [string, RequestToValidate] => ['getPet', { path: `/pets/${id}`, query: q }]),
  fc.tuple(numberish, numberish).map(([a, b]): [string, RequestToValidate] => ['getPet', { path: `/pets/${a}/${b}`, query: {} }]),
  body.map((b): [string, RequestToValidate] => ['createPet', { path: '/pets', query: {}, body: b }]),
)

it('accepts only requests that prism accepts', async () => {
  await fc.assert(
    fc.asyncProperty(request, async ([operationId, input]) => {
      if (ajv.accepts(operationId, input)) expect(await prismAccepts(operationId, input)).toBe(true)
    }),
    { numRuns: 3000 },
  )
})

it('accepts the everyday valid requests, so they skip prism', () => {
  expect(ajv.accepts('listPets', { path: '/pets', query: {} })).toBe(true)
  expect(ajv.accepts('listPets', { path: '/pets', query: { limit: '100', status: 'sold' } })).toBe(true)
  expect(ajv.accepts('getPet', { path: '/pets/9007199254740991', query: {} })).toBe(true)
  expect(ajv.accepts('createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 2, status: 'pending', id: 7 } })).toBe(true)
  expect(ajv.accepts('createPet', { path: '/pets', query: {}, body: { name: ' Rex ', categoryId: 1 } })).toBe(true)
})

it('refuses invalid requests, which then go to prism', () => {
  expect(ajv.accepts('listPets', { path: '/pets', query: { limit: '0' } })).toBe(false)
  expect(ajv.accepts('listPets', { path: '/pets', query: { limit: '101' } })).toBe(false)
  expect(ajv.accepts('listPets', { path: '/pets', query: { limit: '' } })).toBe(false)
  expect(ajv.accepts('listPets', { path: '/pets', query: { status: 'lost' } })).toBe(false)
  expect(ajv.accepts('listPets', { path: '/pets', query: { limit: ['1', '2'] } })).toBe(false)
  expect(ajv.accepts('getPet', { path: '/pets/0', query: {} })).toBe(false)
  expect(ajv.accepts('getPet', { path: '/pets/1e3', query: {} })).toBe(false)
  expect(ajv.accepts('getPet', { path: '/pets/1/2', query: {} })).toBe(false)
  expect(ajv.accepts('createPet', { path: '/pets', query: {}, body: { name: ' ', categoryId: 1 } })).toBe(false)
  expect(ajv.accepts('createPet', { path: '/pets', query: {}, body: { name: 'Rex' } })).toBe(false)
  expect(ajv.accepts('createPet', { path: '/pets', query: {}, body: { name: 'Rex', categoryId: 1, status: null } })).toBe(false)
})
