import type { components } from './openapi-types.js'

/**
 * The body of every error response, from any layer: the contract's `Error` schema, the very type
 * openapi-typescript generates for it, so the `error` a typed client (openapi-fetch) infers is an
 * `ApiError` as it is. Exported from the package as `ApiError`. `code` is a string in the contract;
 * the codes the sandbox sends are the values of `ErrorCode` (D2). Inside, the pipeline throws
 * `HttpError`, which `errorReply` turns into this body.
 *
 * @example
 * import { ErrorCode, type ApiError } from 'petstore-sandbox'
 *
 * const body = (await response.json()) as ApiError
 * if (body.code === ErrorCode.rateLimited) showRetryLater(body.message)
 */
export type ApiErrorBody = components['schemas']['Error']
