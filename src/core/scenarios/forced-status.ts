import type { OpenApiDocument } from '../contract/openapi-document-type.js'
import { ERRORS, ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { Deprecation } from '../http/create-deprecations.js'
import { resetOf } from '../rate-limit/windows.js'

/** Lists the statuses an operation may be forced to (D29). */
export interface ForcibleStatuses {
  listed: readonly number[]
  /** Tells whether `default` covers every other 4xx and 5xx. */
  errorsByDefault: boolean
}

export function forcibleStatuses(document: OpenApiDocument): Map<string, ForcibleStatuses> {
  const byId = new Map<string, ForcibleStatuses>()
  for (const item of Object.values(document.paths)) {
    for (const raw of Object.values(item)) {
      const operation = raw as { operationId?: string; responses?: Record<string, unknown> }
      if (operation.operationId === undefined || operation.responses === undefined) continue
      const codes = Object.keys(operation.responses)
      byId.set(operation.operationId, {
        listed: codes.filter((code) => /^\d{3}$/.test(code)).map(Number),
        errorsByDefault: codes.includes('default'),
      })
    }
  }
  return byId
}

/** Says which statuses may be forced, unless `status` may. */
export function checkForcible(status: number, forcible: ForcibleStatuses | undefined): string | undefined {
  if (forcible === undefined) return 'this request has no operation of the contract'
  if (forcible.listed.includes(status) || (forcible.errorsByDefault && status >= 400 && status <= 599)) return undefined
  const successes = forcible.listed.filter((code) => code < 400).join(', ')
  const errors = forcible.listed.filter((code) => code >= 400).join(', ')
  return `${successes}${forcible.errorsByDefault ? ' or any 400 to 599' : `, ${errors}`}`
}

// Statuses with a condition of their own take their first D2 code.
const CODES = new Map<number, ErrorCode>()
for (const { code, status, ...rest } of Object.values(ERRORS)) {
  if (status !== undefined && !('proxy' in rest) && !CODES.has(status)) CODES.set(status, code)
}

/** Gives a forced 503's Retry-After (s). */
const UNAVAILABLE_RETRY_AFTER = 30

/** Builds a forced status's error as the sandbox's own looks. */
export function forcedError(
  status: number,
  why: string,
  headers: Headers,
  nowMs: number,
  deprecation?: Deprecation,
): HttpError {
  const code = CODES.get(status) ?? ErrorCode.forcedStatus
  switch (status) {
    case 429: {
      const reset = Number(headers.get('x-ratelimit-reset') ?? resetOf(nowMs, 'minute'))
      const retryAfter = Math.max(1, reset - Math.floor(nowMs / 1000))
      headers.set('x-ratelimit-remaining', '0')
      return new HttpError(
        429,
        code,
        `Rate limit of ${headers.get('x-ratelimit-limit')} requests exceeded; retry in ${retryAfter} s (${why})`,
        {
          'retry-after': String(retryAfter),
        },
      )
    }
    case 503:
      return new HttpError(503, code, `The service is unavailable (${why})`, {
        'retry-after': String(UNAVAILABLE_RETRY_AFTER),
      })
    case 401:
      return new HttpError(401, code, `The API key is not valid (${why})`, {
        'www-authenticate': 'Bearer error="invalid_token"',
      })
    case 410:
      return new HttpError(
        410,
        code,
        deprecation === undefined
          ? `This operation is gone (${why})`
          : `This operation was removed on ${new Date(deprecation.sunset).toUTCString()}; ` +
              `use ${deprecation.successor} instead (${why})`,
      )
    default:
      return new HttpError(status, code, `${status} ${code.replaceAll('_', ' ')} (${why})`)
  }
}

/** Reads `Prefer: code=` (D30), or throws a 400 naming the allowed statuses. */
export function preferredStatus(
  prefer: string | null,
  operationId: string,
  forcible: ForcibleStatuses | undefined,
): number | undefined {
  if (prefer === null) return undefined
  // Splits as RFC 7240 does.
  for (const preference of prefer.split(',')) {
    const [name = '', ...value] = (preference.split(';')[0] ?? '').split('=')
    if (name.trim().toLowerCase() !== 'code') continue
    const asked = value
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
    const status = /^\d{3}$/.test(asked) ? Number(asked) : Number.NaN
    const allowed = status >= 100 && status <= 599 ? checkForcible(status, forcible) : checkForcible(0, forcible)
    if (allowed !== undefined) {
      throw new HttpError(
        400,
        ErrorCode.invalidRequest,
        `Prefer: code=${asked.slice(0, 20)} is not an answer of ${operationId}; it may answer ${allowed}`,
      )
    }
    return status
  }
  return undefined
}

/** Names the applied preference (RFC 7240). */
export const PREFERENCE_APPLIED_HEADER = 'preference-applied'

/** Reads back the status `Prefer: code=` forced. */
export function forcedByPrefer(headers: Headers): number | undefined {
  const applied = /^code=(\d{3})$/.exec(headers.get(PREFERENCE_APPLIED_HEADER) ?? '')
  return applied === null ? undefined : Number(applied[1])
}
