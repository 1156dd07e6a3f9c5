import type { ListQuery } from '../store/create-pet-store.js'
import type { JsonText } from '../http/json-text.js'
import type { Pet } from '../store/pet.js'

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
  /**
   * For an operation that only lists pets: the page its input asks for, and its answer from that
   * page, so a shared backend can read the page with the rate-limit decision (`takeThenList`).
   */
  listing?: {
    query(input: OperationInput): ListQuery
    answer(pets: Pet[] | JsonText): OperationResult
  }
}
