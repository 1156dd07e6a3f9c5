import { InvalidArgumentError } from 'commander'
import { ConfigError } from '../../core/errors/config-error.js'
import {
  resolveLatency,
  type FaultKind,
  type LatencyRange,
  type OperationFaults,
} from '../../core/faults/fault-config.js'
import { checkInput } from '../../core/contract/check-input.js'

// Reads the flags' syntax only; the fault schema checks their values.

/** Parses `--latency`: ms (`200`) or a range (`100-400`). */
export function parseLatency(value: string): LatencyRange {
  const match = /^(\d{1,15})(?:-(\d{1,15}))?$/.exec(value)
  if (match === null)
    throw new InvalidArgumentError('expected ms such as 200, or a range such as 100-400 (at most 60000).')
  const min = Number(match[1])
  return asArgument(() => resolveLatency(match[2] === undefined ? min : { min, max: Number(match[2]) }, 'latency'))
}

/** Parses `--error-rate`, 0 to 1. */
export function parseRate(value: string): number {
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(value))
    throw new InvalidArgumentError('expected a number from 0 to 1, such as 0.1.')
  const errorRate = Number(value)
  asArgument(() => checkInput('FaultSettings', { errorRate }))
  return errorRate
}

/** Parses `--error-kinds`, e.g. `500,503,drop`. */
export function parseErrorKinds(value: string): FaultKind[] {
  const kinds = value.split(',').map((kind) => kind.trim())
  asArgument(() => checkInput('FaultSettings', { kinds }))
  return kinds as FaultKind[]
}

/** Parses `--fault <operationId>:<setting>=<value>[,...]`. */
export function parseOperationFault(
  value: string,
  previous: Record<string, OperationFaults> | undefined,
): Record<string, OperationFaults> {
  const usage =
    'expected <operationId>:<setting>=<value>[,...] with settings latency and error-rate,' +
    ' such as createPet:error-rate=0.5,latency=100-300.'
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

/** Turns a schema's refusal into commander's. */
function asArgument<T>(check: () => T): T {
  try {
    return check()
  } catch (error) {
    if (error instanceof ConfigError) throw new InvalidArgumentError(`${error.message}.`)
    throw error
  }
}
