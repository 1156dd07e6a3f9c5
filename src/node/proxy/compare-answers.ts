import { PET_STATUSES } from '../../core/store/pet.js'

/** One side of a compared exchange; header names in lower case. */
export interface ComparedAnswer {
  status: number
  headers: Record<string, string>
  body: unknown
  json: boolean
}

export interface Difference {
  aspect: string
  upstream: string
  sandbox: string
  /** A promise the upstream's side breaks by itself. */
  promise?: string
}

export interface RateSequence {
  remaining: number
  reset: string
}

export interface KeySequences {
  upstream?: RateSequence
  sandbox?: RateSequence
}

const LIMIT = 'x-ratelimit-limit'
const REMAINING = 'x-ratelimit-remaining'
const RESET = 'x-ratelimit-reset'

/** Lists where the sandbox's answer differs from the upstream's (D42). */
export function compareAnswers(
  operationId: string | undefined,
  query: URLSearchParams,
  upstream: ComparedAnswer,
  sandbox: ComparedAnswer,
  sequences: KeySequences | undefined,
  options: { ignoreId?: boolean; hiddenIds?: ReadonlySet<number> } = {},
): Difference[] {
  const found: Difference[] = []
  if (upstream.status !== sandbox.status) {
    found.push({
      aspect: 'status',
      upstream: String(upstream.status),
      sandbox: String(sandbox.status),
      ...queryPromise(operationId, query, upstream, sandbox),
    })
  }
  if (upstream.json !== sandbox.json)
    found.push({
      aspect: 'body:type',
      upstream: upstream.json ? 'JSON' : 'not JSON',
      sandbox: sandbox.json ? 'JSON' : 'not JSON',
    })
  if (upstream.status === sandbox.status) found.push(...compareBodies(operationId, upstream, sandbox, options))
  found.push(...compareRateLimits(upstream, sandbox, sequences))
  if (upstream.status === 429 && sandbox.status === 429)
    found.push(...compareRetryAfter(upstream.headers['retry-after'], sandbox.headers['retry-after']))
  if (upstream.status === sandbox.status) {
    for (const name of ['Deprecation', 'Sunset', 'Link']) {
      const [u, s] = [upstream.headers[name.toLowerCase()], sandbox.headers[name.toLowerCase()]]
      if (u !== s) found.push({ aspect: `header:${name}`, upstream: u ?? 'absent', sandbox: s ?? 'absent' })
    }
  }
  return found
}

/** Says a bad listing query both refused with other statuses is D3 taken otherwise. */
function queryPromise(
  operationId: string | undefined,
  query: URLSearchParams,
  upstream: ComparedAnswer,
  sandbox: ComparedAnswer,
): { promise?: string } {
  if (operationId !== 'listPets' || upstream.status < 400 || sandbox.status !== 400) return {}
  const limit = query.get('limit')
  const status = query.get('status')
  const limitValid = limit === null || (/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100)
  const statusValid = status === null || (PET_STATUSES as readonly string[]).includes(status)
  return limitValid && statusValid ? {} : { promise: 'invalid-query-refused' }
}

function compareBodies(
  operationId: string | undefined,
  upstream: ComparedAnswer,
  sandbox: ComparedAnswer,
  options: { ignoreId?: boolean; hiddenIds?: ReadonlySet<number> },
): Difference[] {
  const found: Difference[] = []
  const u = upstream.body
  const s = sandbox.body
  if (upstream.status >= 400) {
    const [uc, sc] = [codeOf(u), codeOf(s)]
    if (uc !== sc) found.push({ aspect: 'body:code', upstream: uc ?? 'none', sandbox: sc ?? 'none' })
    return found
  }
  if (operationId === 'listPets' && Array.isArray(u) && Array.isArray(s)) {
    const hidden = options.hiddenIds ?? new Set<number>()
    const shown = (s as Array<{ id?: unknown }>).filter((pet) => !hidden.has(pet?.id as number))
    const sIds = shown.map((pet) => pet?.id)
    // With placeholders hidden, the sandbox's page is shorter.
    const all = (u as Array<{ id?: unknown }>).map((pet) => pet?.id)
    const uIds = shown.length < (s as unknown[]).length ? all.slice(0, sIds.length) : all
    const sorted = (ids: unknown[]) => [...ids].map(String).sort().join(',')
    if (uIds.join(',') !== sIds.join(',')) {
      const aspect = sorted(uIds) === sorted(sIds) ? 'body:order' : 'body:ids'
      found.push({ aspect, upstream: uIds.join(', '), sandbox: sIds.join(', ') })
    }
    const byId = new Map(shown.map((pet) => [pet?.id, pet]))
    for (const pet of u as unknown[]) {
      const other = byId.get((pet as { id?: unknown })?.id)
      if (other !== undefined) found.push(...compareFields(pet, other, false))
    }
    return dedupeAspects(found)
  }
  if ((operationId === 'getPet' || operationId === 'createPet') && isObject(u) && isObject(s))
    return compareFields(u, s, options.ignoreId === true)
  return found
}

function compareFields(upstream: unknown, sandbox: unknown, ignoreId: boolean): Difference[] {
  if (!isObject(upstream) || !isObject(sandbox)) return []
  const found: Difference[] = []
  for (const name of new Set([...Object.keys(upstream), ...Object.keys(sandbox)])) {
    if (ignoreId && name === 'id') continue
    const [u, s] = [JSON.stringify(upstream[name]), JSON.stringify(sandbox[name])]
    if (u !== s) found.push({ aspect: `body:field:${name}`, upstream: u ?? 'absent', sandbox: s ?? 'absent' })
  }
  return found
}

/** Keeps one difference per aspect. */
function dedupeAspects(found: Difference[]): Difference[] {
  const seen = new Set<string>()
  return found.filter((difference) => !seen.has(difference.aspect) && seen.add(difference.aspect))
}

/** Compares the rate-limit headers, each side against its own last answer for the key, never across origins. */
function compareRateLimits(
  upstream: ComparedAnswer,
  sandbox: ComparedAnswer,
  sequences: KeySequences | undefined,
): Difference[] {
  const found: Difference[] = []
  const [ul, sl] = [upstream.headers[LIMIT], sandbox.headers[LIMIT]]
  if (ul !== sl)
    found.push({
      aspect: 'header:X-RateLimit-Limit',
      upstream: ul ?? 'absent',
      sandbox: sl ?? 'absent',
      ...(ul === undefined ? { promise: 'rate-limit-headers' } : {}),
    })
  for (const [name, header] of [
    ['X-RateLimit-Remaining', REMAINING],
    ['X-RateLimit-Reset', RESET],
  ] as const) {
    const [u, s] = [upstream.headers[header], sandbox.headers[header]]
    if ((u === undefined) !== (s === undefined))
      found.push({
        aspect: `header:${name}`,
        upstream: u ?? 'absent',
        sandbox: s ?? 'absent',
        ...(u === undefined ? { promise: 'rate-limit-headers' } : {}),
      })
  }
  if (sequences === undefined) return found
  const next = (answer: ComparedAnswer): RateSequence | undefined => {
    const remaining = answer.headers[REMAINING]
    const reset = answer.headers[RESET]
    return remaining !== undefined && /^\d+$/.test(remaining) && reset !== undefined
      ? { remaining: Number(remaining), reset }
      : undefined
  }
  const [un, sn] = [next(upstream), next(sandbox)]
  const [up, sp] = [sequences.upstream, sequences.sandbox]
  if (un !== undefined && sn !== undefined && up !== undefined && sp !== undefined) {
    const [uRolled, sRolled] = [un.reset !== up.reset, sn.reset !== sp.reset]
    if (uRolled !== sRolled) {
      found.push({
        aspect: 'header:X-RateLimit-Reset',
        upstream: uRolled ? 'a new window' : 'the same window',
        sandbox: sRolled ? 'a new window' : 'the same window',
      })
    } else if (!uRolled) {
      const [ud, sd] = [up.remaining - un.remaining, sp.remaining - sn.remaining]
      if (ud !== sd) {
        found.push({
          aspect: 'header:X-RateLimit-Remaining',
          upstream: `down by ${ud} (${up.remaining} to ${un.remaining})`,
          sandbox: `down by ${sd} (${sp.remaining} to ${sn.remaining})`,
          // Down by one (§8) when the sandbox's own count says this request counted.
          ...(sd === 1 ? { promise: 'remaining-counts-down' } : {}),
        })
      }
    }
  }
  if (un !== undefined) sequences.upstream = un
  if (sn !== undefined) sequences.sandbox = sn
  return found
}

/** Compares Retry-After's form and, within a second or two, its wait. */
function compareRetryAfter(upstream: string | undefined, sandbox: string | undefined): Difference[] {
  const show = (value: string | undefined) => value ?? 'absent'
  if (upstream === undefined || sandbox === undefined) {
    return upstream === sandbox
      ? []
      : [
          {
            aspect: 'header:Retry-After',
            upstream: show(upstream),
            sandbox: show(sandbox),
            ...(upstream === undefined ? { promise: 'quota-429-and-recovery' } : {}),
          },
        ]
  }
  const seconds = (value: string) => (/^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined)
  const [u, s] = [seconds(upstream), seconds(sandbox)]
  if (u === undefined || s === undefined) return u === s ? [] : [{ aspect: 'header:Retry-After', upstream, sandbox }]
  return Math.abs(u - s) > 2 ? [{ aspect: 'header:Retry-After', upstream, sandbox }] : []
}

function codeOf(body: unknown): string | undefined {
  return isObject(body) && typeof body.code === 'string' ? body.code : undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
