import { editResponse } from './edit-response.js'
import type { Mutation } from './start-upstream.js'

/**
 * A backend written from the spec alone: it keeps every promise the spec makes and decides every
 * point the spec leaves open otherwise than the sandbox did. 422 rather than 400 for a listing's
 * bad query (D3), UPPER_CASE Error codes (D2), the newest pets first (D8), `Deprecation: true` on
 * getPet (D18), and a 429 whose body is text (the spec does not show it, §7) with its
 * `Retry-After` as an HTTP-date (D14). Nothing it does is drift from the spec.
 */
export function decidesOtherwise(): Mutation {
  return async (request, answer) => {
    const url = new URL(request.url)
    const listing = request.method === 'GET' && url.pathname === '/v1/pets'
    const getting = request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(url.pathname)
    // Newest first: the sandbox's whole (short) listing of that status, reversed, cut at the limit.
    const limit = url.searchParams.get('limit')
    const wanted = limit !== null && /^\d+$/.test(limit) ? Number(limit) : 20
    const asked = listing && wanted >= 1 && wanted <= 100 ? withLimit(request, 100) : request
    const response = await answer(asked)
    if (response.status === 429) {
      const reset = new Date(Number(response.headers.get('x-ratelimit-reset')) * 1000).toUTCString()
      return editResponse(response, {
        headers: (headers) => {
          headers.set('content-type', 'text/plain; charset=utf-8')
          headers.set('retry-after', reset)
        },
        text: 'Too many requests: slow down and try again later.\n',
      })
    }
    if (response.status >= 400) {
      const status = listing && response.status === 400 ? 422 : response.status
      return editResponse(response, {
        status,
        json: (body) => {
          const error = body as { code: string; message: string }
          return { ...error, code: error.code.toUpperCase(), status }
        },
      })
    }
    if (listing && response.status === 200)
      return editResponse(response, { json: (pets) => (pets as unknown[]).toReversed().slice(0, wanted) })
    if (getting) return editResponse(response, { headers: (headers) => headers.set('deprecation', 'true') })
    return response
  }
}

function withLimit(request: Request, limit: number): Request {
  const url = new URL(request.url)
  url.searchParams.set('limit', String(limit))
  return new Request(url, { method: request.method, headers: request.headers })
}
