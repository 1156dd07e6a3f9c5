import type { ErrorCode } from './error-code.js'

/**
 * The one error type of the request pipeline. Anything that refuses a request throws it;
 * `errorReply` is the single place that turns it into an Error body, so every layer answers
 * the same way in-process, in the browser and over HTTP.
 */
export class HttpError extends Error {
  readonly status: number
  readonly code: ErrorCode
  /** Headers the refusal itself needs (`Allow`, `Retry-After`, `WWW-Authenticate`). */
  readonly headers: Readonly<Record<string, string>>

  constructor(status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.code = code
    this.headers = headers
  }
}
