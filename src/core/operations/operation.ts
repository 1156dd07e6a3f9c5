/** What an operation gets from the pipeline once a request is admitted, resolved and valid. */
export interface OperationInput {
  /** The query, form-decoded; a repeated name has its values in order. */
  query: Readonly<Record<string, string | string[]>>
  /** The path parameters, percent-decoded. */
  params: Record<string, string>
  /** The parsed JSON body, for operations that take one. */
  body: Record<string, unknown> | undefined
}

/** What an operation answers: the pipeline adds the policies' headers and builds the Response. */
export interface OperationResult {
  status: number
  body: unknown
}

/** An operation of the contract; the pipeline reads its JSON body when the contract says it takes one. */
export interface Operation {
  handle(input: OperationInput): OperationResult | Promise<OperationResult>
}
