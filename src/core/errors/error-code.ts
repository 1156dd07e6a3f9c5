/**
 * The stable `Error.code` values (decision D2): one per condition, snake_case. Clients may switch
 * on them; they never change meaning.
 *
 * @example
 * if (body.code === ErrorCode.rateLimited) showRetryLater()
 */
export const ErrorCode = {
  invalidRequest: 'invalid_request',
  unauthorized: 'unauthorized',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  gone: 'gone',
  requestTimeout: 'request_timeout',
  payloadTooLarge: 'payload_too_large',
  headersTooLarge: 'request_header_fields_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  temporarilyBanned: 'temporarily_banned',
  internalError: 'internal_error',
  notImplemented: 'not_implemented',
  serviceUnavailable: 'service_unavailable',
  storageFull: 'storage_full',
  expectationFailed: 'expectation_failed',
  /** A status forced by a scenario or `Prefer: code=` that no condition of the sandbox answers with (D29). */
  forcedStatus: 'forced_status',
  /** Only from `petstore-sandbox proxy` (docs/verify-and-proxy.md). */
  upstreamUnreachable: 'upstream_unreachable',
  upstreamTimeout: 'upstream_timeout',
  upstreamTooLarge: 'upstream_too_large',
  upstreamOutcomeUnknown: 'upstream_outcome_unknown',
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]
