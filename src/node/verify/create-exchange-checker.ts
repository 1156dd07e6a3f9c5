import type { IHttpOperation } from '@stoplight/types'
import { createRouter } from '../../core/contract/create-router.js'
import { openapiDocument } from '../../core/contract/openapi-document.js'
import type { OpenApiDocument } from '../../core/contract/openapi-document-type.js'
import { specOpenapiDocument } from '../../core/contract/spec-openapi-document.js'
import { PET_STATUSES } from '../../core/store/pet.js'

/** One request and its answer, as verify sent it or the proxy forwarded it. */
export interface JudgedExchange {
  method: string
  url: string
  path: string
  query: URLSearchParams
  credential: 'key' | 'wrong-key' | 'none'
  /** Absent when not known, and then not judged. */
  requestBody?: unknown
  status: number
  /** Names in lower case. */
  headers: Record<string, string>
  bodyText: string
  /** Undefined when the body is empty or not JSON. */
  body: unknown
  /** Epoch ms by the checker's clock. */
  receivedAt: number
}

/** A broken promise and the exchange that showed it. */
export interface Violation {
  promise: string
  expected: string
  exchange: JudgedExchange
}

type Found = Array<{ promise: string; expected: string }>

/** Parses a body as JSON, or returns undefined. */
export function parseJsonBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Creates the checker of what one exchange shows by itself; sequences are scenarios.ts's. */
export function createExchangeChecker(basePath: string) {
  const router = createRouter(specOpenapiDocument)
  const spec = createResponseValidator(specOpenapiDocument)
  const sandbox = createResponseValidator(openapiDocument)

  return {
    /** Loads the validators before the first answer. */
    warm: () =>
      Promise.all([
        spec.check('listPets', { status: 200, headers: {}, body: [] }),
        sandbox.check('listPets', { status: 200, headers: {}, body: [] }),
      ]).then(() => undefined),
    async check(exchange: JudgedExchange): Promise<Violation[]> {
      const match = router.match(exchange.method, exchange.path)
      const operationId = match.kind === 'operation' ? match.operation.operationId : undefined
      const found: Found = []
      if (operationId !== undefined) found.push(...(await checkContracts(exchange, operationId, spec, sandbox)))
      if (exchange.status >= 400 && exchange.status !== 429) found.push(...checkErrorBody(exchange))
      // Keyless requests are rate-limited per address too (D16).
      const refused = exchange.status === 401 || exchange.status === 429
      if (exchange.credential === 'none' && !refused)
        found.push({ promise: 'unauthorized-without-key', expected: '401 without a key' })
      if (exchange.credential === 'wrong-key' && !refused)
        found.push({ promise: 'unauthorized-with-wrong-key', expected: '401 with a wrong key' })
      found.push(...checkHeaders(exchange, operationId, basePath))
      if (operationId === 'listPets') found.push(...checkListAnswer(exchange))
      if (operationId === 'createPet') found.push(...checkCreateAnswer(exchange))
      return found.map((entry) => ({ ...entry, exchange }))
    },
  }
}

export type ExchangeChecker = ReturnType<typeof createExchangeChecker>

/** Matches headers with promises of their own. */
const OWN_PROMISE_HEADERS = /retry-after|deprecation|sunset|link/i

/** Checks an answer against the spec's document and the sandbox's, whose extra findings are decisions. */
async function checkContracts(
  exchange: JudgedExchange,
  operationId: string,
  spec: ResponseValidator,
  sandbox: ResponseValidator,
): Promise<Found> {
  const found: Found = []
  const type = exchange.headers['content-type'] ?? ''
  // The spec does not show a 429's body (§7, D2).
  const shown = exchange.status !== 429
  if (shown && exchange.bodyText !== '' && !/^application\/json\s*(;|$)/i.test(type)) {
    found.push({ promise: 'matches-contract', expected: `a JSON body (content-type ${type || 'missing'})` })
  } else if (shown && exchange.bodyText !== '' && exchange.body === undefined)
    found.push({ promise: 'matches-contract', expected: 'a body that parses as JSON' })
  const specProblems = await spec.check(operationId, exchange)
  for (const problem of specProblems) found.push({ promise: 'matches-contract', expected: problem })
  const seen = new Set(specProblems)
  for (const problem of await sandbox.check(operationId, exchange)) {
    if (seen.has(problem) || OWN_PROMISE_HEADERS.test(problem)) continue
    found.push({ promise: 'sandbox-contract', expected: `${decisionOf(problem, exchange.status)}: ${problem}` })
  }
  return found
}

/** Names the decision behind a constraint only fixtures/openapi.yaml has. */
function decisionOf(problem: string, status: number): string {
  if (/\(body\.(code|message|status)\)$|media type/.test(problem) || (status >= 400 && /\(body\)$/.test(problem)))
    return 'D2'
  if (/\.name\)$/.test(problem)) return 'D5'
  if (/\.categoryId\)$/.test(problem)) return 'D6'
  return 'D7'
}

function checkErrorBody(exchange: JudgedExchange): Found {
  const body = exchange.body as { code?: unknown; message?: unknown; status?: unknown } | undefined
  if (typeof body !== 'object' || body === null || typeof body.code !== 'string' || typeof body.message !== 'string') {
    return [{ promise: 'error-bodies', expected: `an Error body { code, message, status: ${exchange.status} }` }]
  }
  return body.status === exchange.status
    ? []
    : [{ promise: 'error-bodies', expected: `Error.status ${exchange.status}, got ${String(body.status)}` }]
}

/** How far a backend's clock may lag ours before its reset counts as past. */
const CLOCK_SKEW_MS = 5_000

/** getPet's sunset (spec §9). */
const SUNSET_MS = Date.parse('2030-12-05T00:00:00Z')
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/

/** Checks the rate-limit headers, Retry-After and getPet's deprecation. */
export function checkHeaders(exchange: JudgedExchange, operationId: string | undefined, basePath: string): Found {
  const found: Found = []
  const { headers } = exchange
  const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter(
    (name) => !/^\d+$/.test(headers[name] ?? ''),
  )
  if (missing.length > 0) found.push({ promise: 'rate-limit-headers', expected: `integer ${missing.join(', ')}` })
  else if (Number(headers['x-ratelimit-remaining']) > Number(headers['x-ratelimit-limit'])) {
    found.push({ promise: 'rate-limit-headers', expected: 'X-RateLimit-Remaining no greater than X-RateLimit-Limit' })
  }
  const reset = headers['x-ratelimit-reset']
  if (reset !== undefined && /^\d+$/.test(reset) && Number(reset) * 1000 + CLOCK_SKEW_MS <= exchange.receivedAt) {
    found.push({
      promise: 'reset-in-future',
      expected: `X-RateLimit-Reset after ${Math.floor(exchange.receivedAt / 1000)}, got ${reset}`,
    })
  }
  if (exchange.status === 429) {
    const retryAfter = headers['retry-after']
    if (retryAfterSeconds(retryAfter, exchange.receivedAt) === undefined) {
      found.push({ promise: 'quota-429-and-recovery', expected: 'a 429 with Retry-After (seconds or an HTTP-date)' })
    } else if (!/^[1-9]\d*$/.test(retryAfter ?? '')) {
      found.push({
        promise: 'retry-after-seconds',
        expected: `Retry-After in whole seconds, at least 1, as the sandbox sends it; got ${retryAfter}`,
      })
    }
  }
  if (operationId === 'getPet') {
    const wrong: string[] = []
    if (!/^@\d+$/.test(headers.deprecation ?? '')) wrong.push('Deprecation: @<unix seconds>')
    const sunset = headers.sunset ?? ''
    if (!IMF_FIXDATE.test(sunset) || Date.parse(sunset) !== SUNSET_MS)
      wrong.push('Sunset: Thu, 05 Dec 2030 00:00:00 GMT')
    if (!successorLinkOk(headers.link, exchange.url, basePath))
      wrong.push(`Link: <${basePath}/pets>; rel="successor-version"`)
    if (wrong.length > 0) found.push({ promise: 'deprecation-headers', expected: wrong.join('; ') })
  } else if (operationId !== undefined && (headers.deprecation !== undefined || headers.sunset !== undefined)) {
    found.push({ promise: 'deprecation-headers', expected: `no Deprecation or Sunset on ${operationId}` })
  }
  return found
}

/** Reads a Retry-After, seconds or HTTP-date, in seconds; undefined otherwise. */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const date = Date.parse(value)
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : undefined
}

function successorLinkOk(link: string | undefined, url: string, basePath: string): boolean {
  const match = /<([^>]*)>\s*;[^,]*rel="?successor-version"?/.exec(link ?? '')
  if (match === null) return false
  try {
    return new URL(match[1]!, url).pathname === `${basePath}/pets`
  } catch {
    return false
  }
}

/** Checks a listPets answer: bad parameters refused, order, limit and filter. */
function checkListAnswer(exchange: JudgedExchange): Found {
  const found: Found = []
  const limit = exchange.query.get('limit')
  const status = exchange.query.get('status')
  const limitValid = limit === null || (/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100)
  const statusValid = status === null || (PET_STATUSES as readonly string[]).includes(status)
  if (!limitValid && exchange.status < 400)
    found.push({ promise: 'invalid-query-refused', expected: `400 for limit=${limit}` })
  if (!statusValid && exchange.status < 400)
    found.push({ promise: 'invalid-query-refused', expected: `400 for status=${status}` })
  if (exchange.status !== 200 || !Array.isArray(exchange.body)) return found
  const pets = exchange.body as Array<{ id?: unknown; status?: unknown }>
  const ids = pets.map((pet) => pet?.id)
  if (ids.some((id, index) => index > 0 && !((id as number) > (ids[index - 1] as number)))) {
    found.push({
      promise: 'ascending-ids',
      expected: `ids in ascending order, got ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', ...' : ''}`,
    })
  }
  // An invalid limit is invalid-query-refused's finding.
  const max = limit === null ? 20 : Number(limit)
  if (limitValid && pets.length > max)
    found.push({ promise: 'limit-default-and-bounds', expected: `at most ${max} pets, got ${pets.length}` })
  if (status !== null && statusValid && pets.some((pet) => pet?.status !== status)) {
    found.push({ promise: 'status-filter', expected: `only pets with status ${status}` })
  }
  return found
}

/** Tells whether `body` is a NewPet the spec allows (§2). */
export function isNewPet(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const { name, categoryId, status } = body as Record<string, unknown>
  return (
    typeof name === 'string' &&
    Number.isInteger(categoryId) &&
    (status === undefined || (PET_STATUSES as readonly unknown[]).includes(status))
  )
}

function checkCreateAnswer(exchange: JudgedExchange): Found {
  if (!('requestBody' in exchange)) return []
  if (!isNewPet(exchange.requestBody)) {
    return exchange.status < 400
      ? [{ promise: 'invalid-new-pet-refused', expected: '400 for a body that is not a NewPet' }]
      : []
  }
  if (exchange.status >= 300) return []
  if (exchange.status !== 201) return [{ promise: 'create-then-get', expected: `201 Created, got ${exchange.status}` }]
  const sent = exchange.requestBody as Record<string, unknown>
  const pet = exchange.body as Record<string, unknown> | undefined
  // A name stored trimmed still echoes it (D39).
  const same = (field: string, a: unknown, b: unknown) =>
    field === 'name' && typeof a === 'string' && typeof b === 'string' ? a.trim() === b.trim() : a === b
  const differs = ['name', 'categoryId', 'status'].filter(
    (field) => sent[field] !== undefined && !same(field, pet?.[field], sent[field]),
  )
  return differs.length > 0
    ? [{ promise: 'create-then-get', expected: `the created Pet to echo ${differs.join(', ')}` }]
    : []
}

type Answer = { status: number; headers: Record<string, string>; body: unknown }
type ResponseValidator = ReturnType<typeof createResponseValidator>
type ValidateOutput = typeof import('@stoplight/prism-http/dist/validator/index.js')['validateOutput']

/** Validates answers with prism's `validateOutput`, as the tests do. */
function createResponseValidator(document: OpenApiDocument) {
  let loading: Promise<{ operations: Map<string, IHttpOperation>; validateOutput: ValidateOutput }> | undefined
  const load = () => (loading ??= compile(document))
  return {
    /** Lists what is wrong with an answer of `operationId`. */
    async check(operationId: string, answer: Answer): Promise<string[]> {
      const { operations, validateOutput } = await load()
      const operation = operations.get(operationId)
      if (operation === undefined) return []
      const result = validateOutput({
        resource: operation,
        element: { statusCode: answer.status, headers: answer.headers, body: answer.body },
      })
      if (result._tag === 'Right') return []
      return result.left.map(
        (diagnostic) => `${diagnostic.message}${diagnostic.path?.length ? ` (${diagnostic.path.join('.')})` : ''}`,
      )
    },
  }
}

async function compile(document: OpenApiDocument) {
  const [{ getHttpOperationsFromSpec }, { validateOutput }] = await Promise.all([
    import('@stoplight/prism-http/dist/utils/operations.js'),
    import('@stoplight/prism-http/dist/validator/index.js'),
  ])
  // Prism dereferences in place.
  const list = await getHttpOperationsFromSpec(structuredClone(document) as never)
  return { operations: new Map(list.map((operation) => [operation.iid ?? operation.id, operation])), validateOutput }
}
