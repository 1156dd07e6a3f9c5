import { UPSTREAM_KEY, type Mutation } from './start-upstream.js'
import { editRequest, editResponse } from './edit-response.js'

/** An upstream that breaks one promise, and the promise that must catch it. */
export interface Mutant {
  name: string
  breaks: string
  /** Whether only --spend-quota reaches the broken behaviour. */
  needsQuota?: boolean
  /** False when no single answer shows the drift, so only verify's request sequences catch it, not the proxy. */
  proxyCatches?: false
  /** A fresh mutation per server: some keep state (what they answered before). */
  create(): Mutation
}

const UNKNOWN_ID = String(Number.MAX_SAFE_INTEGER)
const path = (request: Request) => new URL(request.url).pathname
const query = (request: Request, name: string) => new URL(request.url).searchParams.get(name)
const isList = (request: Request) => request.method === 'GET' && path(request) === '/v1/pets'
const isGet = (request: Request) => request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(path(request))
const isCreate = (request: Request) => request.method === 'POST' && path(request) === '/v1/pets'
const stateless = (mutation: Mutation) => () => mutation

/** The mutants: each is a sandbox with one small drift a real backend could have. */
export const MUTANTS: Mutant[] = [
  {
    name: 'no X-RateLimit-Remaining',
    breaks: 'rate-limit-headers',
    create: stateless(async (request, answer) =>
      editResponse(await answer(request), { headers: (headers) => headers.delete('x-ratelimit-remaining') }),
    ),
  },
  {
    name: 'a 401 with an HTML body',
    breaks: 'error-bodies',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      if (response.status !== 401) return response
      return editResponse(response, {
        headers: (headers) => headers.set('content-type', 'text/html'),
        text: '<html><body><h1>401 Unauthorized</h1></body></html>',
      })
    }),
  },
  {
    name: 'an Error whose status differs from the HTTP status',
    breaks: 'error-bodies',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      if (response.status !== 404) return response
      return editResponse(response, { json: (body) => ({ ...(body as object), status: 400 }) })
    }),
  },
  {
    name: 'limit=101 accepted',
    breaks: 'invalid-query-refused',
    create: stateless(async (request, answer) =>
      answer(
        isList(request) && query(request, 'limit') === '101'
          ? editRequest(request, { url: (url) => url.searchParams.set('limit', '100') })
          : request,
      ),
    ),
  },
  {
    name: 'status=adopted accepted',
    breaks: 'invalid-query-refused',
    create: stateless(async (request, answer) =>
      answer(
        isList(request) && query(request, 'status') === 'adopted'
          ? editRequest(request, { url: (url) => url.searchParams.delete('status') })
          : request,
      ),
    ),
  },
  {
    name: 'a NewPet without a name accepted',
    breaks: 'invalid-new-pet-refused',
    create: stateless(async (request, answer) => {
      if (!isCreate(request)) return answer(request)
      const body = (await request
        .clone()
        .json()
        .catch(() => undefined)) as Record<string, unknown> | undefined
      const lacksName =
        typeof body === 'object' &&
        body !== null &&
        !Array.isArray(body) &&
        body.name === undefined &&
        body.categoryId !== undefined
      return answer(lacksName ? editRequest(request, { body: { ...body, name: 'Unnamed' } }) : request)
    }),
  },
  {
    name: 'ids out of order',
    breaks: 'ascending-ids',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      return isList(request) && response.status === 200
        ? editResponse(response, { json: (pets) => (pets as unknown[]).toReversed() })
        : response
    }),
  },
  {
    name: 'a default limit of 10',
    breaks: 'limit-default-and-bounds',
    proxyCatches: false,
    create: stateless(async (request, answer) =>
      answer(
        isList(request) && query(request, 'limit') === null
          ? editRequest(request, { url: (url) => url.searchParams.set('limit', '10') })
          : request,
      ),
    ),
  },
  {
    name: 'the status filter ignored',
    breaks: 'status-filter',
    create: stateless(async (request, answer) =>
      answer(
        isList(request) && query(request, 'status') !== 'adopted'
          ? editRequest(request, { url: (url) => url.searchParams.delete('status') })
          : request,
      ),
    ),
  },
  {
    name: 'a Pet without categoryId',
    breaks: 'matches-contract',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      if (!isGet(request) || response.status !== 200) return response
      return editResponse(response, {
        json: (body) => {
          const { categoryId: _dropped, ...pet } = body as Record<string, unknown>
          return pet
        },
      })
    }),
  },
  {
    name: 'a Pet with a property the contract does not have',
    breaks: 'sandbox-contract',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      if (!isList(request) || response.status !== 200) return response
      return editResponse(response, { json: (pets) => (pets as object[]).map((pet) => ({ ...pet, owner: 'someone' })) })
    }),
  },
  {
    name: '200 where the spec says 201',
    breaks: 'create-then-get',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      return isCreate(request) && response.status === 201 ? editResponse(response, { status: 200 }) : response
    }),
  },
  {
    name: 'a created pet getPet cannot find',
    breaks: 'create-then-get',
    proxyCatches: false,
    create: () => {
      const created = new Set<string>()
      return async (request, answer) => {
        const id = path(request).split('/')[3]
        if (isGet(request) && created.has(id!))
          return answer(editRequest(request, { url: (url) => (url.pathname = `/v1/pets/${UNKNOWN_ID}`) }))
        const response = await answer(request)
        if (isCreate(request) && response.status === 201)
          created.add(String(((await response.clone().json()) as { id: number }).id))
        return response
      }
    },
  },
  {
    name: 'a Pet for an id that does not exist',
    breaks: 'get-pet-not-found',
    proxyCatches: false,
    create: stateless(async (request, answer) =>
      answer(
        isGet(request) && path(request).endsWith(`/${UNKNOWN_ID}`)
          ? editRequest(request, { url: (url) => (url.pathname = '/v1/pets/1') })
          : request,
      ),
    ),
  },
  {
    name: 'a wrong Sunset',
    breaks: 'deprecation-headers',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      return isGet(request)
        ? editResponse(response, { headers: (headers) => headers.set('sunset', 'Fri, 05 Dec 2031 00:00:00 GMT') })
        : response
    }),
  },
  {
    name: 'a Deprecation header on listPets',
    breaks: 'deprecation-headers',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      return isList(request)
        ? editResponse(response, { headers: (headers) => headers.set('deprecation', '@1764892800') })
        : response
    }),
  },
  {
    name: 'a request without a key answered 403',
    breaks: 'unauthorized-without-key',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      if (request.headers.has('authorization') || response.status !== 401) return response
      return editResponse(response, {
        status: 403,
        json: () => ({ code: 'forbidden', message: 'Forbidden', status: 403 }),
      })
    }),
  },
  {
    name: 'any key accepted',
    breaks: 'unauthorized-with-wrong-key',
    proxyCatches: false,
    create: stateless(async (request, answer) => {
      const wrongKey =
        request.headers.has('authorization') && request.headers.get('authorization') !== `Bearer ${UPSTREAM_KEY}`
      const forwarded = editRequest(request, {})
      if (wrongKey) forwarded.headers.set('authorization', `Bearer ${UPSTREAM_KEY}`)
      return answer(forwarded)
    }),
  },
  {
    name: 'X-RateLimit-Remaining that never goes down',
    breaks: 'remaining-counts-down',
    proxyCatches: false,
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      return response.status < 300
        ? editResponse(response, { headers: (headers) => headers.set('x-ratelimit-remaining', '50') })
        : response
    }),
  },
  {
    name: 'X-RateLimit-Reset an hour in the past',
    breaks: 'reset-in-future',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      const reset = Number(response.headers.get('x-ratelimit-reset'))
      return editResponse(response, { headers: (headers) => headers.set('x-ratelimit-reset', String(reset - 3600)) })
    }),
  },
  {
    name: 'a body sent as text/plain',
    breaks: 'matches-contract',
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      return isList(request)
        ? editResponse(response, { headers: (headers) => headers.set('content-type', 'text/plain') })
        : response
    }),
  },
  {
    name: 'a 429 without Retry-After',
    breaks: 'quota-429-and-recovery',
    needsQuota: true,
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      return response.status === 429
        ? editResponse(response, { headers: (headers) => headers.delete('retry-after') })
        : response
    }),
  },
  {
    name: 'Retry-After as an HTTP-date',
    breaks: 'retry-after-seconds',
    needsQuota: true,
    create: stateless(async (request, answer) => {
      const response = await answer(request)
      if (response.status !== 429) return response
      // The same instant the sandbox's seconds point at, in the other form RFC 9110 allows.
      const reset = new Date(Number(response.headers.get('x-ratelimit-reset')) * 1000).toUTCString()
      return editResponse(response, { headers: (headers) => headers.set('retry-after', reset) })
    }),
  },
  {
    name: 'no recovery after a 429',
    breaks: 'quota-429-and-recovery',
    proxyCatches: false,
    needsQuota: true,
    create: () => {
      let refusal: Response | undefined
      return async (request, answer) => {
        if (refusal !== undefined && request.headers.has('authorization')) return refusal.clone()
        const response = await answer(request)
        if (response.status === 429) refusal = response.clone()
        return response
      }
    },
  },
]
