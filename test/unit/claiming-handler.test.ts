import { getResponse, http, RequestHandler } from 'msw'
import { setupServer } from 'msw/node'
import { expect, it, vi } from 'vitest'
import { ClaimingHandler } from '../../src/core/pipeline/claiming-handler.js'
import { createAnswerTail, type Ending, type HandlerAnswer } from '../../src/core/pipeline/answer-tail.js'
import { toResponse } from '../../src/core/http/to-response.js'
import { contractViolations } from '../support/contract.js'

const claimsApi = (url: URL) => url.pathname.startsWith('/v1/')

const json = (body: unknown, status: number, headers: Headers) =>
  toResponse({ status, headers, body }, new Request('http://api.test/'))
const rateLimitHeaders = () =>
  new Headers({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1795418100' })
const reply = (body: unknown, status: number): Ending => ({
  kind: 'reply',
  reply: { status, headers: rateLimitHeaders(), body },
})

// An answer the contract accepts for GET /v1/pets: an empty page with the rate-limit headers.
function emptyPage(): Ending {
  return reply([], 200)
}

/** A claiming handler of the API's paths, whose answers end through a tail that logs nowhere. */
const claiming = (answer: HandlerAnswer, onUnexpectedError?: (error: unknown) => void) =>
  new ClaimingHandler({
    claims: claimsApi,
    answer,
    tail: createAnswerTail(onUnexpectedError ? { onUnexpectedError } : {}),
    logging: 'none',
  })

it('answers a request it claims, with the URL parsed from that request', async () => {
  const answer = vi.fn(async () => emptyPage())
  const handler = claiming(answer)
  const request = new Request('http://api.test/v1/pets?limit=2')

  const response = await getResponse([handler], request)

  expect(response?.status).toBe(200)
  expect(answer).toHaveBeenCalledTimes(1)
  const [answered, url] = answer.mock.calls[0] as unknown as [Request, URL]
  expect(answered).toBe(request)
  expect(url.href).toBe(request.url)
  expect(url.searchParams.get('limit')).toBe('2')
  expect(handler.isUsed).toBe(true)
  expect(await contractViolations('GET', request.url, response!)).toEqual([])
})

it('lets a request it does not claim fall through to the next handler', async () => {
  const answer = vi.fn(async () => emptyPage())
  const next = http.get('*/health', () =>
    json({ code: 'not_found', message: 'from the next handler', status: 404 }, 404, rateLimitHeaders()),
  )
  const url = 'http://api.test/health'
  const response = await getResponse([claiming(answer), next], new Request(url))

  expect(await response!.clone().json()).toMatchObject({ message: 'from the next handler' })
  expect(await contractViolations('GET', url, response!)).toEqual([])
  expect(answer).not.toHaveBeenCalled()
})

it('tells whether it matches through msw test(), as a custom handler does', async () => {
  const handler = claiming(async () => emptyPage())
  expect(await handler.test({ request: new Request('http://api.test/v1/pets') })).toBe(true)
  expect(await handler.test({ request: new Request('http://api.test/v2/pets') })).toBe(false)
})

it('answers an exception from its answer with a 500 Error body through the tail, which hears of it', async () => {
  const failure = new Error('answer failed')
  const unexpected: unknown[] = []
  const handler = claiming(
    async () => {
      throw failure
    },
    (error) => unexpected.push(error),
  )
  const url = 'http://api.test/v1/pets'
  const response = await getResponse([handler], new Request(url))
  expect(response?.status).toBe(500)
  expect(await response!.clone().json()).toEqual({
    code: 'internal_error',
    message: 'The sandbox failed to handle this request.',
    status: 500,
  })
  expect(unexpected).toEqual([failure])
})

it('serves fetch through setupServer and is the handler msw reports as matched', async () => {
  const handler = claiming(async () => emptyPage())
  const server = setupServer(handler)
  const matched: unknown[] = []
  server.events.on('request:match', ({ handler: matchedHandler }) => matched.push(matchedHandler))
  server.listen({ onUnhandledFrame: 'error' })
  try {
    const url = 'http://api.test/v1/pets'
    const response = await fetch(url)
    expect(await response.clone().json()).toEqual([])
    expect(await contractViolations('GET', url, response)).toEqual([])
    expect(matched).toEqual([handler])
  } finally {
    server.close()
  }
})

it('answers without cloning the request, so a body is read once and never teed', async () => {
  // msw's own run() clones every request into RequestHandler.cache; a POST body is then teed and
  // each chunk kept for a clone nobody reads.
  const handler = claiming(async (request) => {
    const { name } = (await new Response(request.body).json()) as { name: string }
    return reply({ id: 1, name, categoryId: 1 }, 201)
  })
  const request = new Request('http://api.test/v1/pets', { method: 'POST', body: '{"name":"Rex","categoryId":1}' })
  const response = await getResponse([handler], request)
  expect(await response!.clone().json()).toEqual({ id: 1, name: 'Rex', categoryId: 1 })
  expect(await contractViolations('POST', request.url, response!)).toEqual([])
  expect(RequestHandler.cache.has(request)).toBe(false)
  expect(request.bodyUsed).toBe(true)
})
