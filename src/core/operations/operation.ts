/** What an operation gets once a request is admitted and valid. */
export interface OperationInput {
  /** The query, form-decoded; a repeated name holds its values in order. */
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

/** Answers one operation of the contract. */
export interface Operation {
  handle(input: OperationInput): OperationResult | Promise<OperationResult>
}
