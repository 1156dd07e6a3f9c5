import fc from 'fast-check'
import { expect, it } from 'vitest'
import { openapiDocument } from '../../src/contract/openapi-document.js'
import { ApiError } from '../../src/errors/api-error.js'
import { createPrismRequestValidator, createRequestValidator, type RequestToValidate } from '../../src/policies/create-request-validator.js'
import { createRequestValidator as createBrowserValidator } from '../../src/policies/create-request-validator.browser.js'

// The browser build validates with Ajv instead of prism (see create-request-validator.browser.ts),
// and the Node build lets every request Ajv accepts skip prism. So Ajv and prism alone must accept
// the same requests and refuse the others with the same 400 message.
const prism = createPrismRequestValidator(openapiDocument)
const browser = createBrowserValidator(openapiDocument)
const node = createRequestValidator(openapiDocument)

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

async function outcome(validator: { validate(id: string, request: RequestToValidate): Promise<void> }, operationId: string, request: RequestToValidate) {
  try {
    await validator.validate(operationId, request)
    return 'accepted'
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return `${error.status} ${error.code}: ${error.message}`
  }
}

it('accepts and refuses the same requests as the prism validator, with the same messages', async () => {
  const differences: string[] = []
  let refusals = 0
  for (const [operationId, request] of cases) {
    const [expected, actual] = await Promise.all([outcome(prism, operationId, request), outcome(browser, operationId, request)])
    if (expected !== 'accepted') refusals++
    if (expected !== actual) differences.push(`${operationId} ${JSON.stringify(request)}\n  prism:   ${expected}\n  browser: ${actual}`)
  }
  expect(differences.join('\n')).toBe('')
  // The table exercises refusals, not only requests both let through.
  expect(refusals).toBeGreaterThan(10)
})

it('names the parameter and its bounds in the browser build too', async () => {
  await expect(browser.validate('listPets', { path: '/pets', query: { limit: '0' } })).rejects.toThrow('limit must be between 1 and 100')
})

it('agrees with the prism validator on generated query strings and bodies', async () => {
  const text = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 200 }).map(String), fc.double({ noNaN: true, min: -10, max: 200 }).map(String), fc.constantFrom('available', 'pending', 'sold', 'Sold', ''))
  const nonEmpty = text.filter((candidate) => candidate !== '')
  const value = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -3, max: 2 ** 53 }), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('available', 'pending', 'sold'), fc.array(fc.integer(), { maxLength: 2 }))
  const request = fc.oneof(
    // Empty values (`?limit=`) are left out: prism lets them through, see the next test.
    fc.record({ limit: nonEmpty, status: nonEmpty }, { requiredKeys: [] }).map((query): [string, RequestToValidate] => ['listPets', { path: '/pets', query }]),
    text.map((id): [string, RequestToValidate] => ['getPet', { path: `/pets/${encodeURIComponent(id) || '1'}`, query: {} }]),
    fc.record({ name: value, categoryId: value, status: value, extra: value }, { requiredKeys: [] }).map((body): [string, RequestToValidate] => ['createPet', { path: '/pets', query: {}, body }]),
  )
  await fc.assert(
    fc.asyncProperty(request, async ([operationId, input]) => {
      const expected = await outcome(prism, operationId, input)
      expect(await outcome(browser, operationId, input)).toBe(expected)
      expect(await outcome(node, operationId, input)).toBe(expected)
    }),
    { numRuns: 300 },
  )
})

it('refuses empty query values and non-decimal integers in both builds (D3)', async () => {
  // Prism alone would coerce `?limit=` to absent and `1e3` to 1000; the syntax check before it
  // refuses them, and the browser build runs the same check.
  for (const validator of [browser, prism, node]) {
    await expect(validator.validate('listPets', { path: '/pets', query: { limit: '' } })).rejects.toThrow('limit must not be empty')
    await expect(validator.validate('listPets', { path: '/pets', query: { status: '' } })).rejects.toThrow('status must not be empty')
    await expect(validator.validate('getPet', { path: '/pets/1e3', query: {} })).rejects.toThrow('petId must be an integer')
  }
})
