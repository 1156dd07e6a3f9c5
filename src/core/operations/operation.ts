/** Holds an admitted, valid request's input. */
export interface OperationInput {
  query: Readonly<Record<string, string | string[]>>
  params: Record<string, string>
  body: Record<string, unknown> | undefined
}

/** Holds an answer; the pipeline adds headers and builds the Response. */
export interface OperationResult {
  status: number
  body: unknown
}

export interface Operation {
  handle(input: OperationInput): OperationResult | Promise<OperationResult>
}
