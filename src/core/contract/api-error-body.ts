import type { components } from './openapi-types.js'
import type { ErrorCode } from '../errors/error-code.js'

/**
 * The body of every error response, from any layer: the contract's `Error` schema. `status`
 * equals the HTTP status; `code` is one of the stable codes of `ErrorCode`. Exported from the
 * package as `ApiError` (the name the contract's users know); inside, the pipeline throws
 * `HttpError`, which `errorReply` turns into this body.
 *
 * @example
 * import type { ApiError } from 'petstore-sandbox'
 *
 * const body = (await response.json()) as ApiError
 * if (body.code === 'rate_limited') showRetryLater(body.message)
 */
export type ApiErrorBody = Omit<components['schemas']['Error'], 'code'> & { code: ErrorCode }
