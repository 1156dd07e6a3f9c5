import type { Reply } from './reply.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'

/** Turns anything thrown into an Error body; a 500 names no internals (D2). */
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
