import type { RouteMatch } from '../contract/create-router.js'
import type { Deprecation } from '../http/create-deprecations.js'
import type { OperationResult } from '../operations/operation.js'

/** Holds a request let in. */
export interface Admission {
  apiPath: string
  route: RouteMatch | undefined
  deprecation: Deprecation | undefined
  key: string
  /** Holds a planned listing's answer, read with the decision. */
  listed?: OperationResult
}
