import { expect, it } from 'vitest'
import { openapiDocument } from '../../src/contract/openapi-document.js'
import { ApiError } from '../../src/errors/api-error.js'
import { createRequestValidator as createPrismValidator, type RequestToValidate } from '../../src/policies/create-request-validator.js'
import { createRequestValidator as createBrowserValidator } from '../../src/policies/create-request-validator.browser.js'

// The browser build validates with Ajv instead of prism (see create-request-validator.browser.ts).
// Both must accept the same requests and refuse the others with the same 400 message.
const prism = createPrismValidator(openapiDocument)
const browser = createBrowserValidator(openapiDocument)

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
