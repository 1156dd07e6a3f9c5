import type { OperationInfo } from '../contract/create-router.js'
import { toEpochMs } from '../clock/create-clock.js'

interface DeprecationExtension {
  deprecatedAt: string
  sunset: string
  successor: string
  documentation?: string
}

export interface DeprecationOverrides {
  /** Goes out as `Deprecation: @<unix seconds>`. */
  deprecatedAt?: Date | string | number
  /** Starts the 410 `gone` answers. */
  sunset?: Date | string | number
}

export interface Deprecation {
  operationId: string
  deprecatedAt: number
  sunset: number
  successor: string
  headers: ReadonlyArray<readonly [string, string]>
}

/** Reads each deprecated operation's dates from the contract (D18). */
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
