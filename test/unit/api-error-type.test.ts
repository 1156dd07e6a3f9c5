import createClient from 'openapi-fetch'
import { expect, expectTypeOf, it } from 'vitest'
import { type ApiError, type components, createSandbox, type paths } from '../../src/index.js'

// The type assertions are checked by `npm run typecheck` (tsc compiles the tests): they fail it
// when the exported ApiError and the contract's generated Error drift apart.
it("types a typed client's error as ApiError, the contract's Error schema itself", async () => {
  expectTypeOf<ApiError>().toEqualTypeOf<components['schemas']['Error']>()
  const sandbox = createSandbox()
  const client = createClient<paths>({ baseUrl: 'http://api.test/v1', fetch: sandbox.fetch })
  const { error } = await client.GET('/pets')
  expectTypeOf(error).toEqualTypeOf<ApiError | undefined>()
  // As docs/in-process.md shows it: the inferred error assigned to an ApiError, no cast.
  const refusal: ApiError | undefined = error
  expect(refusal).toEqual({
    code: 'unauthorized',
    message: 'An API key is required: send Authorization: Bearer <key>',
    status: 401,
  })
})
