import type { ERRORS, ErrorCode } from './error-code.js'

type Error_ = (typeof ERRORS)[keyof typeof ERRORS]

/** Ties a code to its status (D2); `forced_status` takes any. */
export type StatusOf<Code extends ErrorCode> = Extract<Error_, { code: Code }>['status'] extends infer Status
  ? Status extends undefined
    ? number
    : Status
  : never

/** Refuses a request; `errorReply` makes the Error body. */
export class HttpError<Code extends ErrorCode = ErrorCode> extends Error {
  readonly status: number
  readonly code: Code
  readonly headers: Readonly<Record<string, string>>

  constructor(status: StatusOf<Code>, code: Code, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'HttpError'
    this.status = status as number
    this.code = code
    this.headers = headers
  }
}
