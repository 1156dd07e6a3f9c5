import { ConfigError } from '../errors/config-error.js'
import { checkInput } from '../contract/check-input.js'

export const FAULT_KINDS = ['500', '503', 'drop'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export const DEFAULT_ERROR_KINDS = ['500', '503'] as const satisfies readonly FaultKind[]

/** Draws latency uniformly from `min..max` ms. */
export interface LatencyRange {
  min: number
  max: number
}

/** Draws latency through two percentiles (D45). */
export interface LatencyPercentiles {
  p50: number
  p99: number
}

export type Latency = LatencyRange | LatencyPercentiles

export function noLatency(latency: Latency): boolean {
  return 'p50' in latency ? latency.p99 <= 0 : latency.max <= 0
}

/** Overrides the faults for one operation. */
export interface OperationFaults {
  latency?: Latency
  errorRate?: number
  burst?: number
}

/** Injects faults sandbox-wide or per operation, drawn from `seed`. */
export interface FaultOptions {
  /** Delays answers: ms, a range, or two percentiles (D45). */
  latency?: Latency | number
  /** Fails this share of requests, 0 to 1. */
  errorRate?: number
  /** Fails in runs of this mean length (D45). */
  burst?: number
  /** Chooses among these failures uniformly. */
  kinds?: readonly FaultKind[]
  operations?: Readonly<Record<string, OperationFaults>>
  /** Seeds the draws (default: the sandbox's). */
  seed?: number
}

export interface ResolvedFaults {
  latency: Latency
  errorRate: number
  burst?: number
  kinds: FaultKind[]
  operations: Record<string, OperationFaults>
  seed: number
}

/** Checks fault settings, filling defaults. */
export function resolveFaults(
  options: unknown,
  defaultSeed: number,
  operationIds: readonly string[],
  where = 'faults',
): ResolvedFaults {
  // Skips the schema for no faults (BENCHMARKS.md, cold cost).
  const none =
    typeof options === 'object' && options !== null && !Array.isArray(options) && Object.keys(options).length === 0
  const input = none ? {} : checkInput<FaultSettings>('FaultSettings', options, where)
  const operations: ResolvedFaults['operations'] = {}
  for (const [operationId, override] of Object.entries(input.operations ?? {})) {
    if (!operationIds.includes(operationId))
      throw new ConfigError(`${where}.operations: ${operationId} is not an operation (${operationIds.join(', ')})`)
    const at = `${where}.operations.${operationId}`
    operations[operationId] = {
      ...(override.latency === undefined ? {} : { latency: latencyOf(override.latency, `${at}.latency`) }),
      ...(override.errorRate === undefined ? {} : { errorRate: override.errorRate }),
      ...(override.burst === undefined
        ? {}
        : { burst: burstOf(override.burst, override.errorRate ?? input.errorRate ?? 0, `${at}.burst`) }),
    }
  }
  return {
    latency: input.latency === undefined ? { min: 0, max: 0 } : latencyOf(input.latency, `${where}.latency`),
    errorRate: input.errorRate ?? 0,
    ...(input.burst === undefined ? {} : { burst: burstOf(input.burst, input.errorRate ?? 0, `${where}.burst`) }),
    kinds: [...new Set(input.kinds ?? DEFAULT_ERROR_KINDS)],
    operations,
    seed: input.seed ?? defaultSeed,
  }
}

interface FaultSettings extends Omit<FaultOptions, 'latency' | 'operations'> {
  latency?: Latency | number
  operations?: Record<string, { latency?: Latency | number; errorRate?: number; burst?: number }>
}

function latencyOf(latency: Latency | number, where: string): Latency {
  if (typeof latency === 'number' || !('p50' in latency)) return rangeOf(latency, where)
  if (latency.p50 > latency.p99) throw new ConfigError(`${where}: p50 must not be above p99`)
  return { p50: latency.p50, p99: latency.p99 }
}

function burstOf(burst: number, errorRate: number, where: string): number {
  if (errorRate < 1 && errorRate / (burst * (1 - errorRate)) > 1) {
    throw new ConfigError(
      `${where} must be at least ${(errorRate / (1 - errorRate)).toFixed(2)} for an errorRate of ${errorRate}`,
    )
  }
  return burst
}

export function resolveLatency(latency: unknown, where: string): LatencyRange {
  return rangeOf(checkInput<LatencyRange | number>('LatencySetting', latency, where), where)
}

function rangeOf(latency: LatencyRange | number, where: string): LatencyRange {
  const range = typeof latency === 'number' ? { min: latency, max: latency } : latency
  if (range.min > range.max) throw new ConfigError(`${where}: min must not be above max`)
  return { min: range.min, max: range.max }
}
