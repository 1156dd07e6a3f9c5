import { createRouter } from '../contract/create-router.js'
import { openapiDocument } from '../contract/openapi-document.js'
import { ConfigError } from '../errors/config-error.js'
import type { FaultOptions, OperationFaults } from '../faults/fault-config.js'
import { entriesOf, operationOf, readEntry } from './learn-capsule.js'

/** Fits a faults document to a recording (D45): per operation p50, p99, error rate and burst. */
export function fitWeather(value: unknown, where: string): FaultOptions {
  const router = createRouter(openapiDocument)
  const seen = new Map<string, { times: number[]; failed: boolean[] }>()
  for (const [index, entry] of entriesOf(value, where).entries()) {
    const read = readEntry(entry, `${where}.log.entries[${index}]`)
    const operationId = operationOf(router, read.method, read.url)
    if (operationId === undefined) continue
    const of = seen.get(operationId) ?? { times: [], failed: [] }
    seen.set(operationId, of)
    if (Number.isFinite(read.time)) of.times.push(read.time)
    of.failed.push(read.status === 0 || read.status >= 500)
  }
  if (seen.size === 0) throw new ConfigError(`${where} has no entry of the API's operations to fit weather to`)
  const operations: Record<string, OperationFaults> = {}
  for (const [operationId, { times, failed }] of seen) operations[operationId] = fitted(times, failed)
  return { operations }
}

function fitted(times: number[], failed: boolean[]): OperationFaults {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0)
  const failures = failed.filter(Boolean).length
  const runs = failed.filter((fails, index) => fails && (index === 0 || !failed[index - 1])).length
  const errorRate = round(failures / failed.length)
  const burst = runs === 0 ? 1 : round(failures / runs)
  return {
    ...(sorted.length === 0 ? {} : { latency: { p50: at(0.5), p99: Math.max(at(0.5), at(0.99)) } }),
    errorRate,
    // Raises a burst the rate cannot keep to the least it can (D45).
    ...(failures === 0
      ? {}
      : { burst: errorRate >= 1 ? burst : Math.max(burst, round(errorRate / (1 - errorRate) + 0.01), 1) }),
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000
