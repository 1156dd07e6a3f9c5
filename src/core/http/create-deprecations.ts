import type { OperationInfo } from '../contract/create-router.js'
import { toEpochMs } from '../clock/create-clock.js'

/** The `x-deprecation` extension of a deprecated operation in fixtures/openapi.yaml. */
interface DeprecationExtension {
  deprecatedAt: string
  sunset: string
  successor: string
  documentation?: string
}

export interface DeprecationOverrides {
  /** When the operation was deprecated; sent as `Deprecation: @<unix seconds>`. */
  deprecatedAt?: Date | string | number
  /** When it goes away; from then on it answers 410 `gone`. */
  sunset?: Date | string | number
}

export interface Deprecation {
  operationId: string
  deprecatedAt: number
  sunset: number
  successor: string
  headers: ReadonlyArray<readonly [string, string]>
}

/**
 * The deprecation lifecycle of each deprecated operation (D18), read from the OpenAPI document
 * (`deprecated: true` and `x-deprecation`), so the dates live in the contract and nowhere else.
 * `overrides` lets a team rehearse other dates.
 */
export function createDeprecations(operations: readonly OperationInfo[], overrides: DeprecationOverrides = {}) {
  const byOperation = new Map<string, Deprecation>()
  for (const operation of operations) {
    if (!operation.deprecated) continue
    const extension = operation.extensions['x-deprecation'] as DeprecationExtension | undefined
    if (extension === undefined) throw new Error(`deprecated operation ${operation.operationId} has no x-deprecation`)
    const deprecatedAt = toEpochMs(overrides.deprecatedAt ?? extension.deprecatedAt)
    const sunset = toEpochMs(overrides.sunset ?? extension.sunset)
    const links = [`<${extension.successor}>; rel="successor-version"`]
    if (extension.documentation !== undefined)
      links.push(`<${extension.documentation}>; rel="deprecation"; type="text/html"`)
    byOperation.set(operation.operationId, {
      operationId: operation.operationId,
      deprecatedAt,
      sunset,
      successor: extension.successor,
      headers: [
        ['deprecation', `@${Math.floor(deprecatedAt / 1000)}`],
        ['sunset', new Date(sunset).toUTCString()],
        ['link', links.join(', ')],
      ],
    })
  }
  return {
    of: (operationId: string): Deprecation | undefined => byOperation.get(operationId),
  }
}

export type Deprecations = ReturnType<typeof createDeprecations>
