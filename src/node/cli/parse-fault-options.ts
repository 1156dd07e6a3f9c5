import { InvalidArgumentError } from 'commander'
import { FAULT_KINDS, type FaultKind, type LatencyRange, type OperationFaults } from '../../core/faults/fault-config.js'

/** `--latency`: whole ms (`200`) or a range drawn from uniformly (`100-400`). */
export function parseLatency(value: string): LatencyRange {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(value)
  const min = Number(match?.[1])
  const max = match?.[2] === undefined ? min : Number(match[2])
  if (match === null || min > max || max > 60_000) throw new InvalidArgumentError('expected ms such as 200, or a range such as 100-400 (at most 60000).')
  return { min, max }
}

/** `--error-rate`: the share of requests answered with an injected failure, 0 to 1. */
export function parseRate(value: string): number {
  const rate = Number(value)
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(value) || !(rate >= 0 && rate <= 1)) throw new InvalidArgumentError('expected a number from 0 to 1, such as 0.1.')
  return rate
}

/** `--error-kinds`: which failures to inject, e.g. `500,503,drop`. */
export function parseErrorKinds(value: string): FaultKind[] {
  const kinds = value.split(',').map((kind) => kind.trim())
  if (kinds.some((kind) => !FAULT_KINDS.includes(kind as FaultKind)))
    throw new InvalidArgumentError(`expected a comma-separated list of ${FAULT_KINDS.join(', ')}.`)
  return kinds as FaultKind[]
}

/**
 * `--fault <operationId>:<setting>=<value>[,...]`, repeatable: per-operation overrides, e.g.
 * `--fault createPet:error-rate=0.5,latency=100-300`. Operation names are checked when the
 * sandbox is created, against the contract.
 */
export function parseOperationFault(value: string, previous: Record<string, OperationFaults> | undefined): Record<string, OperationFaults> {
  const usage = 'expected <operationId>:<setting>=<value>[,...] with settings latency and error-rate, such as createPet:error-rate=0.5,latency=100-300.'
  const match = /^([A-Za-z][A-Za-z0-9_]*):(.+)$/.exec(value)
  if (match === null) throw new InvalidArgumentError(usage)
  const faults: OperationFaults = { ...previous?.[match[1]!] }
  for (const setting of match[2]!.split(',')) {
    const [name, setting_value, extra] = setting.split('=')
    if (setting_value === undefined || extra !== undefined) throw new InvalidArgumentError(usage)
    if (name === 'latency') faults.latency = parseLatency(setting_value)
    else if (name === 'error-rate') faults.errorRate = parseRate(setting_value)
    else throw new InvalidArgumentError(usage)
  }
  return { ...previous, [match[1]!]: faults }
}
