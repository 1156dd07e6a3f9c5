import { isDeepStrictEqual } from 'node:util'
import { maskKey } from '../../core/auth/mask-key.js'
import { createMasker } from '../../core/auth/create-masker.js'
import { type JudgedExchange, isNewPet } from './create-exchange-checker.js'
import { type PromiseSource, VERIFY_PROMISES } from './promises.js'
import { UNKNOWN_ID } from './scenarios.js'

/** One failure of a promise, keys masked. */
export interface FailureDetail {
  request: string
  got: string
  expected: string
}

/** Names a promise's outcome; `warned` is a decision broken without `--strict`. */
export type Outcome = 'passed' | 'failed' | 'warned' | 'skipped'

export interface PromiseOutcome {
  id: string
  title: string
  source: PromiseSource
  outcome: Outcome
  reason?: string
  /** The first few; `failureCount` counts them all. */
  failures: FailureDetail[]
  failureCount: number
}

/** What a verify run found, whatever format shows it. */
export interface VerifyReport {
  baseUrl: string
  /** Masked. */
  key: string
  startedAt: string
  durationMs: number
  requests: number
  strict: boolean
  /** Patterns seen across the run, a line each (see `diagnose`). */
  diagnosis: string[]
  promises: PromiseOutcome[]
  passed: number
  failed: number
  warned: number
  skipped: number
}

/** Failures kept per promise; the count says how many in all. */
const DETAILS_KEPT = 3

/** Collects failures and skips per promise while verify runs; a failure outranks a skip. */
export function createPromiseLedger(key: string, strict: boolean) {
  const failures = new Map<string, FailureDetail[]>()
  // The scenario and the per-answer check may both flag one exchange.
  const seen = new Map<string, Set<JudgedExchange>>()
  const skips = new Map<string, string>()

  return {
    fail(promise: string, expected: string, exchange: JudgedExchange): void {
      const exchanges = seen.get(promise) ?? new Set<JudgedExchange>()
      if (exchanges.has(exchange)) return
      seen.set(promise, exchanges.add(exchange))
      const details = failures.get(promise) ?? []
      const detail = { ...describeExchange(exchange, key), expected }
      if (
        details.length < DETAILS_KEPT &&
        !details.some((kept) => kept.request === detail.request && kept.expected === expected)
      )
        details.push(detail)
      failures.set(promise, details)
    },
    skip(promise: string, reason: string): void {
      skips.set(promise, reason)
    },
    report(run: Omit<VerifyReport, 'promises' | 'passed' | 'failed' | 'warned' | 'skipped' | 'strict'>): VerifyReport {
      const promises: PromiseOutcome[] = VERIFY_PROMISES.map(({ id, title, source }) => {
        const failureCount = seen.get(id)?.size ?? 0
        if (failureCount > 0) {
          const outcome = source.kind === 'decision' && !strict ? 'warned' : 'failed'
          return { id, title, source, outcome, failures: failures.get(id)!, failureCount }
        }
        const reason = skips.get(id)
        return reason === undefined
          ? { id, title, source, outcome: 'passed', failures: [], failureCount }
          : { id, title, source, outcome: 'skipped', reason, failures: [], failureCount }
      })
      const count = (outcome: Outcome) => promises.filter((promise) => promise.outcome === outcome).length
      return {
        ...run,
        strict,
        promises,
        passed: count('passed'),
        failed: count('failed'),
        warned: count('warned'),
        skipped: count('skipped'),
      }
    },
  }
}

// Headers the promises speak of; others would bury them.
const SHOWN_HEADERS = [
  'content-type',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'deprecation',
  'sunset',
  'link',
]
const BODY_EXCERPT = 160

/** Words an exchange's request and answer a line each, the key masked. */
export function describeExchange(exchange: JudgedExchange, key: string): { request: string; got: string } {
  const mask = createMasker({ keys: [key] }).text
  const credential =
    exchange.credential === 'key' ? `key ${maskKey(key)}` : exchange.credential === 'none' ? 'no key' : 'a wrong key'
  const sent = exchange.requestBody === undefined ? '' : ` ${JSON.stringify(exchange.requestBody)}`
  const headers = SHOWN_HEADERS.filter((name) => exchange.headers[name] !== undefined).map(
    (name) => `${name}: ${exchange.headers[name]}`,
  )
  // Masked before it is cut, so no part of a key is left at the cut.
  const whole = mask(exchange.bodyText)
  const body = whole.length > BODY_EXCERPT ? `${whole.slice(0, BODY_EXCERPT)}...` : whole
  return {
    request: mask(`${exchange.method} ${exchange.url}${sent} (${credential})`),
    got: mask([String(exchange.status), ...headers, body === '' ? '(no body)' : body].join(' | ')),
  }
}

/** Says what kind of backend the run saw (no state, any key taken, …), a line per pattern. */
export function diagnose(
  exchanges: readonly JudgedExchange[],
  run: { baseUrl: string; spentQuota: boolean },
): string[] {
  const lines: string[] = []
  const basePath = new URL(run.baseUrl).pathname.replace(/\/+$/, '')
  if (!basePath.endsWith('/v1'))
    lines.push(`a different base path: ${basePath || '/'}, where both of the spec's addresses end with /v1 (§1, §9)`)

  const stateless = statelessSigns(exchanges)
  if (stateless.length > 0) lines.push(`no state: ${stateless.join('; ')}`)

  const wrongKey = exchanges.find((exchange) => exchange.credential === 'wrong-key' && exchange.status < 300)
  if (wrongKey !== undefined)
    lines.push(`any key accepted: a key nobody issued got ${wrongKey.status} for ${wrongKey.method} ${wrongKey.path}`)

  const counted = exchanges.filter((exchange) => exchange.credential === 'key')
  const remaining = new Set(
    counted.map((exchange) => exchange.headers['x-ratelimit-remaining']).filter((value) => value !== undefined),
  )
  const refused = counted.some((exchange) => exchange.status === 429)
  const unlimited: string[] = []
  if (counted.length > 0 && remaining.size === 0) unlimited.push('no X-RateLimit-Remaining on any answer')
  if (counted.length > 2 && remaining.size === 1)
    unlimited.push(`X-RateLimit-Remaining stayed ${[...remaining][0]} over ${counted.length} answers`)
  if (run.spentQuota && !refused) unlimited.push('no 429 after the quota was spent')
  else if (unlimited.length > 0 && !refused) unlimited.push('no request was refused with 429')
  if (unlimited.length > 0) lines.push(`no rate limiting observed: ${unlimited.join(', ')}`)

  const otherFormats = new Map<string, Set<number>>()
  for (const exchange of exchanges) {
    const type = (exchange.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (exchange.status < 400 || exchange.bodyText === '' || type === 'application/json') continue
    otherFormats.set(
      type || 'no content-type',
      (otherFormats.get(type || 'no content-type') ?? new Set()).add(exchange.status),
    )
  }
  for (const [type, statuses] of otherFormats) {
    const what = type === 'application/problem+json' ? 'application/problem+json (RFC 9457)' : type
    lines.push(
      `validation errors in another format: ${[...statuses].join(', ')} answered as ${what},` +
        ` not the spec's Error body (§7)`,
    )
  }
  return lines
}

/** Lists signs that a backend keeps nothing. */
function statelessSigns(exchanges: readonly JudgedExchange[]): string[] {
  const signs: string[] = []
  for (const [index, created] of exchanges.entries()) {
    if (created.method !== 'POST' || created.status !== 201 || !isNewPet(created.requestBody)) continue
    const pet = created.body as { id?: unknown; name?: unknown } | undefined
    const sent = created.requestBody as { name: string }
    if (pet?.name !== sent.name)
      signs.push(
        `createPet answered a pet named ${JSON.stringify(pet?.name)} for one sent as ${JSON.stringify(sent.name)}`,
      )
    const fetched = exchanges
      .slice(index + 1)
      .find(
        (later) => later.method === 'GET' && later.path === `/pets/${String(pet?.id)}` && later.credential === 'key',
      )
    if (fetched !== undefined && (fetched.status !== 200 || !isDeepStrictEqual(fetched.body, pet))) {
      signs.push(
        `the pet it created (id ${String(pet?.id)}) was not found again:` +
          ` getPet answered ${fetched.status} ${fetched.bodyText.slice(0, 80)}`,
      )
    }
  }
  const phantom = exchanges.find(
    (exchange) => exchange.path === `/pets/${UNKNOWN_ID}` && exchange.credential === 'key' && exchange.status === 200,
  )
  if (phantom !== undefined) signs.push(`getPet found a pet for id ${UNKNOWN_ID}, which nobody created`)
  return signs
}
