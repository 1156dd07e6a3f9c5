import { HttpError } from '../errors/http-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { createRandom, seedFor } from './create-random.js'
import type { FaultKind, ResolvedFaults } from './fault-config.js'

/** Marks every response that carries an injected fault, so nobody mistakes it for a bug. */
export const FAULT_HEADER = 'x-sandbox-fault'

/** Thrown for an injected dropped connection: the pipeline answers it with `Response.error()`. */
export class DroppedConnection extends Error {
  constructor() {
    super('injected fault: connection dropped')
    this.name = 'DroppedConnection'
  }
}

export interface FaultInjectorOptions {
  faults: ResolvedFaults
  /**
   * Waits out injected latency. Default: a real `setTimeout`, independent of the sandbox clock
   * (moving the clock must not shorten a delay). Tests pass one that records instead of waiting.
   */
  sleep?: (ms: number) => Promise<void>
}

/** Waits `ms` on a real timer, independent of the sandbox clock: the default delay of faults and scenarios. */
export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Draws the faults of each request that reaches an operation. Each operation has its own PRNG
 * stream, and every request takes exactly three draws (latency, failure, kind) whatever the
 * configuration, so the n-th request to an operation meets the same faults in every run with the
 * same seed, however requests to other operations interleave.
 */
export function createFaultInjector({ faults, sleep = realSleep }: FaultInjectorOptions) {
  let config = faults
  let streams = new Map<string, () => number>()

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
    /** Replaces the configuration; the draws start over from the seed. */
    configure(next: ResolvedFaults): void {
      config = next
      streams = new Map()
    },
    /** Starts the draws over from the seed (on `reset()`), so a reset run repeats too. */
    restart(): void {
      streams = new Map()
    },
    /**
     * Waits out this request's latency and marks it in `headers`; throws the injected failure,
     * if one is drawn: an HttpError (500/503) or a DroppedConnection. Without latency it decides
     * at once and returns nothing to wait for, so a request without faults takes no extra turn.
     */
    inject(operationId: string, headers: Headers): Promise<void> | undefined {
      const random = stream(operationId)
      const latencyDraw = random()
      const failureDraw = random()
      const kindDraw = random()
      const override = config.operations[operationId]
      const latency = override?.latency ?? config.latency
      const errorRate = override?.errorRate ?? config.errorRate
      const kind: FaultKind | undefined = failureDraw >= errorRate ? undefined : (config.kinds[Math.floor(kindDraw * config.kinds.length)] ?? '500')
      const ms = latency.min + Math.floor(latencyDraw * (latency.max - latency.min + 1))
      if (ms <= 0) return fail(kind, headers, [])
      headers.set(FAULT_HEADER, `latency=${ms}ms`)
      return sleep(ms).then(() => fail(kind, headers, [`latency=${ms}ms`]))
    },
  }
}

/** Throws the drawn failure, if any, marked in `headers` after the marks already there. */
function fail(kind: FaultKind | undefined, headers: Headers, marks: string[]): undefined {
  if (kind === undefined) return undefined
  if (kind === 'drop') throw new DroppedConnection()
  headers.set(FAULT_HEADER, [...marks, `error=${kind}`].join(', '))
  throw kind === '503'
    ? new HttpError(503, ErrorCode.serviceUnavailable, `Injected fault (${FAULT_HEADER}): the service is unavailable; this is a rehearsal, not a bug`, {
        'retry-after': '1',
      })
    : new HttpError(500, ErrorCode.internalError, `Injected fault (${FAULT_HEADER}): internal error; this is a rehearsal, not a bug`)
}

export type FaultInjector = ReturnType<typeof createFaultInjector>
