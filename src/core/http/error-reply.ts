import type { Reply } from './reply.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'

/**
 * Turns anything thrown while handling a request into an Error body (D2). An `HttpError` keeps
 * its status and code; anything else is a bug of ours and becomes a 500 `internal_error` whose
 * message names no internals. `headers` already holds what earlier steps set (rate limits,
 * deprecation).
 *
 * @example
 * errorReply(new HttpError(404, ErrorCode.notFound, 'pet 9 does not exist'), new Headers()).status // 404
 */
export function errorReply(error: unknown, headers: Headers, onUnexpected?: (error: unknown) => void): Reply {
  const httpError =
    error instanceof HttpError
      ? error
      : new HttpError(500, ErrorCode.internalError, 'The sandbox failed to handle this request.')
  if (!(error instanceof HttpError)) onUnexpected?.(error)
  for (const [name, value] of Object.entries(httpError.headers)) headers.set(name, value)
  return {
    status: httpError.status,
    headers,
    body: { code: httpError.code, message: httpError.message, status: httpError.status },
  }
}
