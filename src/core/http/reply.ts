/** An answer before it is a Response: status, headers, JSON value; `toResponse` alone makes the Response. */
export interface Reply {
  status: number
  headers: Headers
  /** The JSON value of the body, or its text (`JsonText`); `undefined` for a reply without a body. */
  body?: unknown
}
