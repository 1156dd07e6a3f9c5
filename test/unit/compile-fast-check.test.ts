import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations.js'
import { validateInput } from '@stoplight/prism-http/dist/validator/index.js'
import type { IHttpOperation } from '@stoplight/types'
import fc from 'fast-check'
import { beforeAll, expect, it } from 'vitest'
import { openapiDocument } from '../../src/contract/openapi-document.js'
import { compileFastCheck, type FastCheckInput } from '../../src/policies/compile-fast-check.js'

const listPets = compileFastCheck(openapiDocument, '/pets', 'get')!
const createPet = compileFastCheck(openapiDocument, '/pets', 'post')!
const getPet = compileFastCheck(openapiDocument, '/pets/{petId}', 'get')!
let operations: Map<string, IHttpOperation>

beforeAll(async () => {
  const compiled = await getHttpOperationsFromSpec(structuredClone(openapiDocument) as never)
  operations = new Map(compiled.map((operation) => [operation.iid ?? operation.id, operation]))
})

/** What the request validator asks prism, for the same input. */
function prismAccepts(operationId: string, request: FastCheckInput): boolean {
  const operation = operations.get(operationId)!
  const hasBody = request.body !== undefined
  const result = validateInput({
    resource: operation,
    element: {
      method: operation.method as 'get',
      url: { path: request.path, query: request.query },
      headers: hasBody ? { 'content-type': 'application/json', 'content-length': '1' } : {},
      ...(hasBody ? { body: request.body } : {}),
    },
  })
  return result._tag === 'Right'
}

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

it('accepts only list queries that prism accepts', () => {
  fc.assert(
    fc.property(query, (q) => {
      const request = { path: '/pets', query: q }
      if (listPets(request)) expect(prismAccepts('listPets', request)).toBe(true)
    }),
    { numRuns: 3000 },
  )
})

it('accepts only pet ids that prism accepts', () => {
  fc.assert(
    fc.property(numberish, query, (id, q) => {
      const request = { path: `/pets/${id}`, query: q }
      if (getPet(request)) expect(prismAccepts('getPet', request)).toBe(true)
    }),
    { numRuns: 3000 },
  )
})

it('accepts only NewPet bodies that prism accepts', () => {
  fc.assert(
    fc.property(body, (b) => {
      const request = { path: '/pets', query: {}, body: b }
      if (createPet(request)) expect(prismAccepts('createPet', request)).toBe(true)
    }),
    { numRuns: 3000 },
  )
})

it('accepts the everyday valid requests without prism', () => {
  expect(listPets({ path: '/pets', query: {} })).toBe(true)
  expect(listPets({ path: '/pets', query: { limit: '100', status: 'sold' } })).toBe(true)
  expect(getPet({ path: '/pets/9007199254740991', query: {} })).toBe(true)
  expect(createPet({ path: '/pets', query: {}, body: { name: 'Rex', categoryId: 2, status: 'pending', id: 7 } })).toBe(true)
  expect(createPet({ path: '/pets', query: {}, body: { name: ' Rex ', categoryId: 1 } })).toBe(true)
})

it('leaves every invalid request to prism', () => {
  expect(listPets({ path: '/pets', query: { limit: '0' } })).toBe(false)
  expect(listPets({ path: '/pets', query: { limit: '101' } })).toBe(false)
  expect(listPets({ path: '/pets', query: { status: 'lost' } })).toBe(false)
  expect(listPets({ path: '/pets', query: { limit: ['1', '2'] } })).toBe(false)
  expect(getPet({ path: '/pets/0', query: {} })).toBe(false)
  expect(getPet({ path: '/pets/abc', query: {} })).toBe(false)
  expect(createPet({ path: '/pets', query: {}, body: { name: ' ', categoryId: 1 } })).toBe(false)
  expect(createPet({ path: '/pets', query: {}, body: { name: 'Rex' } })).toBe(false)
  expect(createPet({ path: '/pets', query: {}, body: { name: 'Rex', categoryId: 1, status: null } })).toBe(false)
  expect(createPet({ path: '/pets', query: {} })).toBe(false)
})
