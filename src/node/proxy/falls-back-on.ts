import type { OperationInfo } from '../../core/contract/create-router.js'
import { openapiDocument } from '../../core/contract/openapi-document.js'

/**
 * Whether an upstream status means "this operation is not there yet": 501 for any operation of
 * the contract, 404 for one whose contract has no 404 (getPet's 404 says "no such pet" and is
 * forwarded). docs/verify-and-proxy.md says the same to users.
 */
export function fallsBackOn(status: number, operation: OperationInfo | undefined): boolean {
  if (operation === undefined) return false
  if (status === 501) return true
  if (status !== 404) return false
  const responses = (openapiDocument.paths[operation.path]?.[operation.method.toLowerCase()] as { responses?: Record<string, unknown> } | undefined)?.responses
  return responses?.['404'] === undefined
}
