import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { createRandom, seedFor } from './create-random.js'
import type { FaultKind, Latency, ResolvedFaults } from './fault-config.js'

/** Marks every answer carrying an injected fault. */
export const FAULT_HEADER = 'x-sandbox-fault'

/** Drops the connection (`Response.error()`). */
export class DroppedConnection extends Error {
  constructor() {
    super('injected fault: connection dropped')
    this.name = 'DroppedConnection'
  }
}

export interface FaultInjectorOptions {
  faults: ResolvedFaults
  /** Sleeps on a real timer, never the sandbox clock. */
  sleep?: (ms: number) => Promise<void>
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Creates the fault draws, a stream per operation (D45). */
export function createFaultInjector({ faults, sleep = realSleep }: FaultInjectorOptions) {
  let config = faults
  let streams = new Map<string, () => number>()
  // Operations whose last request failed (bursts).
  let failing = new Set<string>()

  function stream(operationId: string): () => number {
    let random = streams.get(operationId)
    if (random === undefined) {
      random = createRandom(seedFor(config.seed, operationId))
      streams.set(operationId, random)
    }
    return random
  }

  return {
    config: (): ResolvedFaults => config,
    /** Replaces the configuration, restarting the draws. */
    configure(next: ResolvedFaults): void {
      config = next
      streams = new Map()
      failing = new Set()
    },
    /** Restarts the draws, so a reset run repeats. */
    restart(): void {
      streams = new Map()
      failing = new Set()
    },
    /** Waits out the drawn latency and throws the drawn failure. */
    inject(operationId: string, headers: Headers): Promise<void> | undefined {
      const random = stream(operationId)
      const latencyDraw = random()
      const failureDraw = random()
      const kindDraw = random()
      const override = config.operations[operationId]
      const latency = override?.latency ?? config.latency
      const errorRate = override?.errorRate ?? config.errorRate
      const fails = failureDraw < failureChance(errorRate, override?.burst ?? config.burst, failing.has(operationId))
      if (fails) failing.add(operationId)
      else failing.delete(operationId)
      const kind: FaultKind | undefined = fails
        ? (config.kinds[Math.floor(kindDraw * config.kinds.length)] ?? '500')
        : undefined
      const ms = latencyMs(latency, latencyDraw)
      if (ms <= 0) return fail(kind, headers, [])
      headers.set(FAULT_HEADER, `latency=${ms}ms`)
      return sleep(ms).then(() => fail(kind, headers, [`latency=${ms}ms`]))
    },
  }
}

/** Returns this request's chance to fail (D45). */
function failureChance(errorRate: number, burst: number | undefined, failedLast: boolean): number {
  if (burst === undefined || errorRate >= 1) return errorRate
  return failedLast ? 1 - 1 / burst : errorRate / (burst * (1 - errorRate))
}

export function latencyMs(latency: Latency, draw: number): number {
  if (!('p50' in latency)) return latency.min + Math.floor(draw * (latency.max - latency.min + 1))
  if (latency.p50 <= 0) return 0
  const sigma = Math.log(Math.max(latency.p99, latency.p50) / latency.p50) / Z99
  return Math.min(
    60_000,
    Math.round(latency.p50 * Math.exp(sigma * probit(Math.min(Math.max(draw, 1e-12), 1 - 1e-12)))),
  )
}

// The standard normal's 99th percentile.
const Z99 = 2.3263478740408408

/** Returns the standard normal's quantile (Acklam, error below 1.2e-9). */
function probit(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ]
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572]
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ]
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)))
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)))
  const q = p - 0.5
  const r = q * q
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  )
}

/** Throws the drawn failure, its mark after those in `headers`. */
function fail(kind: FaultKind | undefined, headers: Headers, marks: string[]): undefined {
  if (kind === undefined) return undefined
  if (kind === 'drop') throw new DroppedConnection()
  headers.set(FAULT_HEADER, [...marks, `error=${kind}`].join(', '))
  throw kind === '503'
    ? new HttpError(
        503,
        ErrorCode.serviceUnavailable,
        `Injected fault (${FAULT_HEADER}): the service is unavailable; this is a rehearsal, not a bug`,
        {
          'retry-after': '1',
        },
      )
    : new HttpError(
        500,
        ErrorCode.internalError,
        `Injected fault (${FAULT_HEADER}): internal error; this is a rehearsal, not a bug`,
      )
}

export type FaultInjector = ReturnType<typeof createFaultInjector>
