import { getResponse } from 'msw'
import { createBoundKeys } from '../../src/core/auth/create-bound-keys.js'
import { expect, it, vi } from 'vitest'
import { createClock } from '../../src/core/clock/create-clock.js'
import { createApiScope } from '../../src/core/contract/create-api-scope.js'
import { createRouter } from '../../src/core/contract/create-router.js'
import { openapiDocument } from '../../src/core/contract/openapi-document.js'
import { createApiHandler } from '../../src/core/pipeline/create-api-handler.js'
import { createKeyRing } from '../../src/core/auth/create-key-ring.js'
import { DEMO_KEYS } from '../../src/core/auth/demo-keys.js'
import { resolveKeys } from '../../src/core/auth/resolve-keys.js'
import { createCors } from '../../src/core/http/create-cors.js'
import { createDeprecations } from '../../src/core/http/create-deprecations.js'
import { createRateLimiter } from '../../src/core/rate-limit/create-rate-limiter.js'
import { createRequestValidator } from '../../src/core/validation/create-request-validator.js'
import { createFaultInjector } from '../../src/core/faults/create-fault-injector.js'
import { resolveFaults } from '../../src/core/faults/fault-config.js'
import { createRequestLog } from '../../src/core/request-log/create-request-log.js'
import { createAnswerTail } from '../../src/core/pipeline/answer-tail.js'
import { contractViolations } from '../support/contract.js'
import { createScenarios } from '../../src/core/scenarios/create-scenarios.js'
import { ClaimingHandler } from '../../src/core/pipeline/claiming-handler.js'
import type { Operation } from '../../src/core/operations/operation.js'
import { WireAnswer } from '../../src/core/http/to-response.js'

function handlerWith(listPets: Operation['handle'], onUnexpectedError = vi.fn()) {
  const clock = createClock()
  const router = createRouter(openapiDocument)
  const rateLimiter = createRateLimiter({ now: clock.now, banAfter: 10, banSeconds: 900 })
  const world = {
    session: undefined,
    operations: { listPets: { handle: listPets } },
    rateLimiter,
    clock,
    faults: createFaultInjector({ faults: resolveFaults({}, 1, ['listPets']) }),
    scenarios: createScenarios({
      known: new Map(),
      initial: () => ({}),
      seed: () => 1,
      sleep: () => Promise.resolve(),
      isKey: () => true,
    }),
    // An in-memory store reads nothing ahead.
    store: { pending: () => undefined },
  }
  const handler = createApiHandler({
    scope: createApiScope(undefined),
    router,
    keyRing: createKeyRing(resolveKeys(DEMO_KEYS)),
    addressLimiter: rateLimiter,
    validator: createRequestValidator(openapiDocument),
    deprecations: createDeprecations(router.operations()),
    cors: createCors('*'),
    forcible: new Map(),
    prefer: false,
    tail: createAnswerTail({
      requestLog: createRequestLog(10),
      now: clock.now,
      onUnexpectedError,
      secrets: () => ({ keys: [] }),
    }),
    storeSettled: () => true,
    boundKeys: createBoundKeys(),
    worlds: { default: world, named: () => world, bound: () => world },
  })
  return { handler, onUnexpectedError }
}

it('turns an exception inside an operation into a 500 Error body with rate-limit headers', async () => {
  const failure = new Error('store exploded')
  const { handler, onUnexpectedError } = handlerWith(() => {
    throw failure
  })
  const url = 'http://api.test/v1/pets'
  const response = await getResponse(
    [handler],
    new Request(url, { headers: { authorization: 'Bearer sandbox-free-key' } }),
  )
  expect(response?.status).toBe(500)
  expect(await response!.clone().json()).toEqual({
    code: 'internal_error',
    message: 'The sandbox failed to handle this request.',
    status: 500,
  })
  expect(response!.headers.get('x-ratelimit-remaining')).toBe('59')
  expect(onUnexpectedError).toHaveBeenCalledWith(failure)
  expect(await contractViolations('GET', url, response!)).toEqual([])
})

it('does not leak the exception message to the client', async () => {
  const { handler } = handlerWith(() => {
    throw new Error('secret internal detail')
  })
  const response = await getResponse(
    [handler],
    new Request('http://api.test/v1/pets', { headers: { authorization: 'Bearer sandbox-free-key' } }),
  )
  expect(await response!.text()).not.toContain('secret internal detail')
})

it('answers in memory without a promise, so node:http writes the answer in the turn that read the request', async () => {
  const listPets = () => ({ status: 200, body: [] })
  const { handler } = handlerWith(listPets)
  expect(handler).toBeInstanceOf(ClaimingHandler)
  const url = 'http://api.test/v1/pets?limit=2'
  const request = new Request(url, { headers: { authorization: 'Bearer sandbox-free-key' } })

  const served = (handler as ClaimingHandler).serve(request, new URL(url))

  expect(served).not.toBeNull()
  expect(served).not.toBeInstanceOf(Promise)
  const response = served instanceof WireAnswer ? served.toResponse() : (served as Response)
  expect(response.status).toBe(200)
  expect(await response.clone().json()).toEqual([])
  expect(response.headers.get('x-ratelimit-remaining')).toBe('59')
  expect(await contractViolations('GET', url, response)).toEqual([])
})

it('answers through a promise when the operation gives one, with the same answer', async () => {
  const listPets = () => Promise.resolve({ status: 200, body: [] })
  const { handler } = handlerWith(listPets)
  const url = 'http://api.test/v1/pets?limit=2'
  const request = new Request(url, { headers: { authorization: 'Bearer sandbox-free-key' } })

  const served = (handler as ClaimingHandler).serve(request, new URL(url))

  expect(served).toBeInstanceOf(Promise)
  const answered = await served
  const response = answered instanceof WireAnswer ? answered.toResponse() : (answered as Response)
  expect(response.status).toBe(200)
  expect(await response.clone().json()).toEqual([])
  expect(await contractViolations('GET', url, response)).toEqual([])
})
