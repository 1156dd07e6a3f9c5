import type { components } from './openapi-types.js'

/**
 * Types the body of every error response, the contract's `Error` (D2).
 *
 * @example
 * import { ErrorCode, type ApiError } from 'petstore-sandbox'
 *
 * const body = (await response.json()) as ApiError
 * if (body.code === ErrorCode.rateLimited) showRetryLater(body.message)
 */
export type ApiErrorBody = components['schemas']['Error']
