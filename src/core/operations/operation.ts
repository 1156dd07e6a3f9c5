/** What an operation gets from the pipeline once a request is authenticated, admitted and valid. */
export interface OperationContext {
  /** The query, form-decoded; a repeated name has its values in order. */
  query: Readonly<Record<string, string | string[]>>
  params: Record<string, string>
  /** The parsed JSON body, for operations that take one. */
  body: Record<string, unknown> | undefined
  /** Response headers set by the policies (rate limits, CORS, deprecation): send them. */
  headers: Headers
  /** The request itself, for `jsonResponse` (the node:http adapter's needs no body stream). */
  request: Request
}

export interface Operation {
  /** Whether the pipeline reads and validates a JSON body before calling `handle`. */
  readsBody: boolean
  handle(context: OperationContext): Response | Promise<Response>
}
