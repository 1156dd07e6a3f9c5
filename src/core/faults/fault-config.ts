import { ConfigError } from '../errors/config-error.js'

/** What an injected failure looks like: an Error body with 500 or 503, or a dropped connection. */
export const FAULT_KINDS = ['500', '503', 'drop'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

/** Added latency in ms: a fixed value (`min === max`) or drawn uniformly from `min..max`. */
export interface LatencyRange {
  min: number
  max: number
}

/** Faults of one operation; what is left out falls back to the sandbox-wide setting. */
export interface OperationFaults {
  latency?: LatencyRange
  errorRate?: number
}

/**
 * Faults to inject, sandbox-wide with per-operation overrides. Every draw comes from a PRNG
 * seeded by `seed`, one stream per operation, so the same requests meet the same faults.
 *
 * @example
 * createSandbox({ faults: { seed: 3, errorRate: 0.1, kinds: ['503'], operations: { createPet: { latency: { min: 50, max: 200 } } } } })
 */
export interface FaultOptions {
  latency?: LatencyRange
  /** Share of requests answered with an injected failure, 0 to 1. Default 0. */
  errorRate?: number
  /** Which failures to inject, chosen among uniformly. Default `['500', '503']`. */
  kinds?: readonly FaultKind[]
  /** Overrides by operationId (`listPets`, `createPet`, `getPet`). */
  operations?: Readonly<Record<string, OperationFaults>>
  /** Seed of the fault draws. Default: the sandbox's `seed`. */
  seed?: number
}

export interface ResolvedFaults {
  latency: LatencyRange
  errorRate: number
  kinds: FaultKind[]
  operations: Record<string, { latency?: LatencyRange; errorRate?: number }>
  seed: number
}

const MAX_LATENCY_MS = 60_000

/**
 * Checks a fault configuration once, when it is given (by option, CLI or admin API), and fills
 * in the defaults. `where` prefixes messages so they name the field that was wrong.
 */
export function resolveFaults(options: unknown, defaultSeed: number, operationIds: readonly string[], where = 'faults'): ResolvedFaults {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new ConfigError(`${where} must be an object`)
  const input = options as Record<string, unknown>
  for (const name of Object.keys(input)) {
    if (!['latency', 'errorRate', 'kinds', 'operations', 'seed'].includes(name))
      throw new ConfigError(`${where}.${name} is not a fault setting (latency, errorRate, kinds, operations, seed)`)
  }
  const seed = input.seed ?? defaultSeed
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) throw new ConfigError(`${where}.seed must be a whole number of 0 or more`)
  const kinds = input.kinds ?? ['500', '503']
  if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((kind) => !FAULT_KINDS.includes(kind as FaultKind))) {
    throw new ConfigError(`${where}.kinds must be a non-empty list of ${FAULT_KINDS.join(', ')}`)
  }
  const operations: ResolvedFaults['operations'] = {}
  const overrides = input.operations ?? {}
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    throw new ConfigError(`${where}.operations must be an object keyed by operationId`)
  for (const [operationId, override] of Object.entries(overrides)) {
    if (!operationIds.includes(operationId)) throw new ConfigError(`${where}.operations: ${operationId} is not an operation (${operationIds.join(', ')})`)
    if (typeof override !== 'object' || override === null || Array.isArray(override))
      throw new ConfigError(`${where}.operations.${operationId} must be an object`)
    for (const name of Object.keys(override)) {
      if (name !== 'latency' && name !== 'errorRate')
        throw new ConfigError(`${where}.operations.${operationId}.${name} is not a per-operation setting (latency, errorRate)`)
    }
    const { latency, errorRate } = override as Record<string, unknown>
    operations[operationId] = {
      ...(latency === undefined ? {} : { latency: resolveLatency(latency, `${where}.operations.${operationId}.latency`) }),
      ...(errorRate === undefined ? {} : { errorRate: resolveRate(errorRate, `${where}.operations.${operationId}.errorRate`) }),
    }
  }
  return {
    latency: input.latency === undefined ? { min: 0, max: 0 } : resolveLatency(input.latency, `${where}.latency`),
    errorRate: input.errorRate === undefined ? 0 : resolveRate(input.errorRate, `${where}.errorRate`),
    kinds: [...new Set(kinds as FaultKind[])],
    operations,
    seed,
  }
}

function resolveLatency(value: unknown, where: string): LatencyRange {
  const range = typeof value === 'number' ? { min: value, max: value } : value
  if (typeof range !== 'object' || range === null) throw new ConfigError(`${where} must be ms or { min, max }`)
  const { min, max } = range as Record<string, unknown>
  const valid = (ms: unknown): ms is number => typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_LATENCY_MS
  if (!valid(min) || !valid(max) || min > max) throw new ConfigError(`${where} must be whole ms from 0 to ${MAX_LATENCY_MS}, min not above max`)
  return { min, max }
}

function resolveRate(value: unknown, where: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new ConfigError(`${where} must be a number from 0 to 1`)
  return value
}
