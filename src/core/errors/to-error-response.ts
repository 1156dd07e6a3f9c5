import { jsonResponse } from '../http/json-response.js'
import { ApiError } from './api-error.js'
import { ErrorCode } from './error-code.js'

/**
 * Turns anything thrown while handling a request into an Error body (D2). An `ApiError` keeps its
 * status and code; anything else is a bug of ours and becomes a 500 `internal_error` whose message
 * names no internals. `headers` already holds what earlier layers set (rate limits, deprecation).
 */
export function toErrorResponse(
  error: unknown,
  headers: Headers,
  onUnexpected?: (error: unknown) => void,
  request?: Request,
): Response {
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(500, ErrorCode.internalError, 'The sandbox failed to handle this request.')
  if (!(error instanceof ApiError)) onUnexpected?.(error)
  for (const [name, value] of Object.entries(apiError.headers)) headers.set(name, value)
  return jsonResponse(
    { code: apiError.code, message: apiError.message, status: apiError.status },
    apiError.status,
    headers,
    request,
  )
}
