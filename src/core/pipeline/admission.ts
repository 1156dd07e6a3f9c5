import type { RouteMatch } from '../contract/create-router.js'
import type { Deprecation } from '../http/create-deprecations.js'
import type { OperationResult } from '../operations/operation.js'

/** A request let in: its path below the API prefix, its route, and the deprecation it falls under. */
export interface Admission {
  apiPath: string
  route: RouteMatch | undefined
  deprecation: Deprecation | undefined
  /** The request's API key. */
  key: string
  /** A planned listing's answer, when its page was read with the decision. */
  listed?: OperationResult
}
