/** Lists each `Error.code` and status in D2's order (check-names). */
export const ERRORS = {
  invalidRequest: { code: 'invalid_request', status: 400 },
  unauthorized: { code: 'unauthorized', status: 401 },
  notFound: { code: 'not_found', status: 404 },
  methodNotAllowed: { code: 'method_not_allowed', status: 405 },
  requestTimeout: { code: 'request_timeout', status: 408 },
  conflict: { code: 'conflict', status: 409 },
  gone: { code: 'gone', status: 410 },
  payloadTooLarge: { code: 'payload_too_large', status: 413 },
  unsupportedMediaType: { code: 'unsupported_media_type', status: 415 },
  expectationFailed: { code: 'expectation_failed', status: 417 },
  headersTooLarge: { code: 'request_header_fields_too_large', status: 431 },
  rateLimited: { code: 'rate_limited', status: 429 },
  temporarilyBanned: { code: 'temporarily_banned', status: 429 },
  internalError: { code: 'internal_error', status: 500 },
  notImplemented: { code: 'not_implemented', status: 501 },
  serviceUnavailable: { code: 'service_unavailable', status: 503 },
  storageFull: { code: 'storage_full', status: 507 },
  forcedStatus: { code: 'forced_status', status: undefined },
  upstreamUnreachable: { code: 'upstream_unreachable', status: 502, proxy: true },
  upstreamTimeout: { code: 'upstream_timeout', status: 504, proxy: true },
  upstreamOutcomeUnknown: { code: 'upstream_outcome_unknown', status: 504, proxy: true },
  upstreamTooLarge: { code: 'upstream_too_large', status: 502, proxy: true },
} as const satisfies Record<string, { code: string; status: number | undefined; proxy?: true }>

type Errors = typeof ERRORS

export const ErrorCode = Object.fromEntries(Object.entries(ERRORS).map(([name, { code }]) => [name, code])) as {
  readonly [Name in keyof Errors]: Errors[Name]['code']
}

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]
