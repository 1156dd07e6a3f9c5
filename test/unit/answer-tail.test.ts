import { getResponse } from 'msw'
import { expect, it } from 'vitest'
import { ErrorCode } from '../../src/core/errors/error-code.js'
import { HttpError } from '../../src/core/errors/http-error.js'
import { DroppedConnection } from '../../src/core/faults/create-fault-injector.js'
import {
  createAnswerTail,
  type HandlerAnswer,
  type Logging,
  refusedRequest,
} from '../../src/core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../src/core/pipeline/claiming-handler.js'
import { createRequestLog } from '../../src/core/request-log/create-request-log.js'
import { contractViolations } from '../support/contract.js'
import type { SandboxRequest } from '../../src/core/http/sandbox-request.js'

const KEY = 'sk_tail_0123456789abcdef'
const URL_ = 'http://api.test/v1/pets?limit=2'

/** One tail over a real request log, and a handler of the API's paths ending through it. */
function setUp(answer: HandlerAnswer, logging: Logging = 'listed') {
  const requestLog = createRequestLog(10, () => ({ keys: [KEY] }))
  const unexpected: unknown[] = []
  const printed: string[] = []
  requestLog.watch((entry) => printed.push(`${entry.method} ${entry.path} ${entry.status}`))
  const tail = createAnswerTail({
    requestLog,
    now: () => Date.UTC(2026, 0, 2),
    onUnexpectedError: (error) => unexpected.push(error),
    secrets: () => ({ keys: [KEY] }),
  })
  const handler = new ClaimingHandler({ claims: (url) => url.pathname.startsWith('/v1/'), answer, tail, logging })
  return { requestLog, tail, handler, unexpected, printed }
}

const rateLimited = (headers: Headers) => {
  headers.set('x-ratelimit-limit', '60')
  headers.set('x-ratelimit-remaining', '59')
  headers.set('x-ratelimit-reset', '1767312000')
}

it('answers what a handler throws with its Error body, carrying the headers set before, and lists it with the body', async () => {
  const { handler, requestLog } = setUp(async (_request, _url, exchange) => {
    rateLimited(exchange.headers)
    throw new HttpError(400, ErrorCode.invalidRequest, 'limit must be at most 100')
  })
  const response = await getResponse([handler], new Request(URL_))
  expect(response?.status).toBe(400)
  expect(response!.headers.get('x-ratelimit-remaining')).toBe('59')
  expect(await response!.clone().json()).toEqual({
    code: 'invalid_request',
    message: 'limit must be at most 100',
    status: 400,
  })
  expect(await contractViolations('GET', URL_, response!)).toEqual([])
  const [exchange] = requestLog.select()
  expect(exchange?.entry).toMatchObject({
    method: 'GET',
    path: '/v1/pets?limit=2',
    status: 400,
    time: '2026-01-02T00:00:00.000Z',
  })
  expect(JSON.parse(exchange?.bodies?.responseBody ?? 'null')).toMatchObject({ code: 'invalid_request' })
})

it('answers anything else thrown as a 500 that names no internals, and tells onUnexpectedError', async () => {
  const failure = new Error('store exploded at /srv/secret')
  const { handler, requestLog, unexpected } = setUp(async (_request, _url, exchange) => {
    rateLimited(exchange.headers)
    throw failure
  })
  const response = await getResponse([handler], new Request(URL_))
  expect(response?.status).toBe(500)
  const text = await response!.clone().text()
  expect(text).not.toContain('secret')
  expect(JSON.parse(text)).toMatchObject({ code: 'internal_error', status: 500 })
  expect(await contractViolations('GET', URL_, response!)).toEqual([])
  expect(unexpected).toEqual([failure])
  expect(requestLog.last().map((entry) => entry.status)).toEqual([500])
})

it('masks a key an Error message echoes, in the answer and in the log', async () => {
  const { handler, requestLog } = setUp(async () => {
    throw new HttpError(404, ErrorCode.notFound, `no pet at /v1/pets/${KEY}`)
  })
  const response = await getResponse([handler], new Request(`http://api.test/v1/pets/${KEY}`))
  const body = (await response!.clone().json()) as { message: string }
  expect(body.message).not.toContain(KEY)
  expect(body.message).toMatch(/^no pet at \/v1\/pets\/\S+$/)
  expect(JSON.stringify(requestLog.select())).not.toContain(KEY)
})

it('ends an injected dropped connection without an answer, logged as a drop', async () => {
  const { handler, requestLog } = setUp(async () => {
    throw new DroppedConnection()
  })
  const response = await getResponse([handler], new Request(URL_))
  expect(response?.type).toBe('error')
  expect(requestLog.last()).toMatchObject([{ status: 0, fault: 'drop' }])
})

it('passes a request on without logging it when the handler says next', async () => {
  const { handler, requestLog, printed } = setUp(async () => ({ kind: 'next' }))
  expect(await getResponse([handler], new Request(URL_))).toBeUndefined()
  expect(requestLog.count()).toBe(0)
  expect(printed).toEqual([])
})

it('logs a Response passed on as it came with the bodies the handler gives', async () => {
  const { handler, requestLog } = setUp(async (_request, url, exchange) => {
    exchange.notes.source = 'upstream'
    const response = new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } })
    return {
      kind: 'passed',
      response,
      status: 200,
      headers: [['content-type', 'application/json']],
      bodies: { origin: url.origin, responseBody: '[]' },
    }
  })
  const response = await getResponse([handler], new Request(URL_))
  expect(await response!.text()).toBe('[]')
  const [exchange] = requestLog.select()
  expect(exchange?.entry).toMatchObject({ status: 200, source: 'upstream', path: '/v1/pets?limit=2' })
  expect(exchange?.bodies?.responseBody).toBe('[]')
})

it('lists, only shows or leaves out an answer as the handler logs, and a handler may list one refusal', async () => {
  const ok = async (_request: SandboxRequest, _url: URL, exchange: { headers: Headers }) => {
    rateLimited(exchange.headers)
    return { kind: 'reply' as const, reply: { status: 200, headers: exchange.headers, body: [] } }
  }
  const watched = setUp(ok, 'watched')
  await getResponse([watched.handler], new Request(URL_))
  expect(watched.requestLog.count()).toBe(0)
  expect(watched.printed).toEqual(['GET /v1/pets?limit=2 200'])

  const none = setUp(ok, 'none')
  await getResponse([none.handler], new Request(URL_))
  expect(none.requestLog.count()).toBe(0)
  expect(none.printed).toEqual([])

  const gate = setUp(async (_request, _url, exchange) => {
    exchange.logging = 'listed'
    throw new HttpError(401, ErrorCode.unauthorized, 'the admin token is missing', { 'www-authenticate': 'Bearer' })
  }, 'watched')
  const refused = await getResponse([gate.handler], new Request(URL_))
  expect(refused?.status).toBe(401)
  expect(refused!.headers.get('www-authenticate')).toBe('Bearer')
  expect(gate.requestLog.last()).toMatchObject([{ status: 401 }])
})

it('refuses a request no handler sees with an Error body, listed; and what is no request, unlogged', () => {
  const { tail, requestLog } = setUp(async () => ({ kind: 'next' }))
  const head = { method: 'TRACE', url: '/v1/pets', rawHeaders: ['Host', 'api.test', 'Authorization', `Bearer ${KEY}`] }
  const reply = tail.refuse(
    refusedRequest(head, tail.now()),
    new HttpError(400, ErrorCode.invalidRequest, 'TRACE requests are not supported by the sandbox'),
    new Headers(),
  )
  expect(reply).toMatchObject({ status: 400, body: { code: 'invalid_request', status: 400 } })
  const [entry] = requestLog.last()
  expect(entry).toMatchObject({ method: 'TRACE', path: '/v1/pets', status: 400 })
  expect(JSON.stringify(entry)).not.toContain(KEY)

  tail.refuse(
    undefined,
    new HttpError(400, ErrorCode.invalidRequest, 'The request is not valid HTTP/1.1'),
    new Headers(),
  )
  expect(requestLog.count()).toBe(1)
})
