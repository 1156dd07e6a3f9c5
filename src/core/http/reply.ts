/**
 * What the sandbox answers, before it is a Response: a status, the headers the policies set, and
 * a JSON value (none for a 204). Operations, the pipeline and the admin API return replies;
 * `toResponse` alone turns them into Responses, at the edge.
 *
 * @example
 * const reply: Reply = { status: 200, headers: new Headers(), body: [] }
 */
export interface Reply {
  status: number
  headers: Headers
  /** The JSON value of the body, or its text (`JsonText`); `undefined` for a reply without a body. */
  body?: unknown
}
