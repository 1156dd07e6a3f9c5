import type { ERRORS, ErrorCode } from './error-code.js'

type Error_ = (typeof ERRORS)[keyof typeof ERRORS]

/** The status `code` comes with (D2), bound by the compiler: `forced_status` takes the status forced. */
export type StatusOf<Code extends ErrorCode> = Extract<Error_, { code: Code }>['status'] extends infer Status
  ? Status extends undefined
    ? number
    : Status
  : never

/** Refuses a request; `errorReply` alone turns it into an Error body, in every mode. */
export class HttpError<Code extends ErrorCode = ErrorCode> extends Error {
  readonly status: number
  readonly code: Code
  /** Headers the refusal itself needs (`Allow`, `Retry-After`, `WWW-Authenticate`). */
  readonly headers: Readonly<Record<string, string>>

  constructor(status: StatusOf<Code>, code: Code, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'HttpError'
    this.status = status as number
    this.code = code
    this.headers = headers
  }
}
