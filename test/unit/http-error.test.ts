import { expect, expectTypeOf, it } from 'vitest'
import { ErrorCode } from '../../src/core/errors/error-code.js'
import { HttpError, type StatusOf } from '../../src/core/errors/http-error.js'

// The type assertions are checked by `npm run typecheck` (tsc compiles the tests): a refusal whose
// status is not its code's (D2) fails it, so a status and its code cannot drift apart at a call site.
it('binds each code to its one status at compile time, and forced_status to any status', () => {
  expectTypeOf<StatusOf<'invalid_request'>>().toEqualTypeOf<400>()
  expectTypeOf<StatusOf<'upstream_timeout'>>().toEqualTypeOf<504>()
  expectTypeOf<StatusOf<'forced_status'>>().toEqualTypeOf<number>()
  // @ts-expect-error invalid_request comes with 400, never 404
  const drifted = new HttpError(404, ErrorCode.invalidRequest, 'a refusal with the wrong status')
  expect(drifted.status).toBe(404)
  expect(new HttpError(418, ErrorCode.forcedStatus, 'forced').status).toBe(418)
})

it('tells an unknown key by its type, which the admin API answers 404 whatever the wording', async () => {
  const { createSandbox, UnknownKeyError, ConfigError } = await import('../../src/index.js')
  const sandbox = createSandbox()
  let refused: unknown
  try {
    sandbox.quota.get('no-such-key')
  } catch (error) {
    refused = error
  }
  expect(refused).toBeInstanceOf(UnknownKeyError)
  expect(refused).toBeInstanceOf(ConfigError)
  await expect((async () => sandbox.scenarios.set('no-such-key', 'down'))()).rejects.toBeInstanceOf(UnknownKeyError)
})
