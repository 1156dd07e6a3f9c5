import { ConfigError, UnknownKeyError } from '../errors/config-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { Deprecation } from '../http/create-deprecations.js'
import { createRandom, seedFor } from '../faults/create-random.js'
import type { MaybePromise } from '../state/maybe-promise.js'
import type { SharedScenarios } from '../state/shared-state.js'
import { forcedError } from './forced-status.js'
import { type ResolvedScenario, type ScenarioName, unknownScenario } from './scenario-config.js'

/** Marks every answer a key's scenario shaped. */
export const SCENARIO_HEADER = 'x-sandbox-scenario'

export interface ScenariosOptions {
  known: ReadonlyMap<string, ResolvedScenario>
  /** Returns what a reset restores (D34). */
  initial: () => Readonly<Record<string, string>>
  seed: () => number
  /** Waits out latency on a real timer. */
  sleep: (ms: number) => Promise<void>
  isKey: (key: string) => boolean
  shared?: SharedScenarios | undefined
}

/** Says what a scenario leaves the pipeline to do. */
export interface Shaped {
  empty: boolean
}

/** Creates each key's scenario and the step applying it (D29). */
export function createScenarios({ known, initial, seed, sleep, isKey, shared }: ScenariosOptions) {
  let local: Record<string, string> = { ...initial() }
  let streams = new Map<string, () => number>()
  let followed: Readonly<Record<string, string>> | undefined
  const assigned = (): Readonly<Record<string, string>> => {
    if (shared === undefined) return local
    const current = shared.current() ?? initial()
    // Another process's change restarts the draws, as one here does.
    if (current !== followed) {
      followed = current
      streams = new Map()
    }
    return current
  }
  const store = (next: Record<string, string>): MaybePromise<void> => {
    streams = new Map()
    if (shared === undefined) {
      local = next
      return
    }
    return shared.set(next)
  }
  const stream = (key: string, operationId: string) => {
    const name = `${key}\n${operationId}`
    let random = streams.get(name)
    if (random === undefined) {
      random = createRandom(seedFor(shared?.seed() ?? seed(), name))
      streams.set(name, random)
    }
    return random
  }
  const without = (key: string): Record<string, string> => {
    const rest = { ...assigned() }
    delete rest[key]
    return rest
  }
  const behaviour = (key: string, operationId: string) => {
    const name = scenarioOf(assigned(), key)
    return name === undefined ? undefined : { name, ...known.get(name)?.operations[operationId] }
  }

  return {
    list: () => [...known.values()].map(({ name, description }) => ({ name, description })),
    of: (key: string): string | undefined => scenarioOf(assigned(), key),
    all: assigned,
    seed: (): number => shared?.seed() ?? seed(),
    set(key: string, name: ScenarioName): MaybePromise<void> {
      if (!known.has(name)) throw new ConfigError(unknownScenario(name, [...known.keys()]))
      if (!isKey(key)) throw new UnknownKeyError(key)
      return store({ ...assigned(), [key]: name })
    },
    clear(key: string): MaybePromise<void> {
      if (!isKey(key)) throw new UnknownKeyError(key)
      return store(without(key))
    },
    forget: (key: string): MaybePromise<void> =>
      scenarioOf(assigned(), key) === undefined ? undefined : store(without(key)),
    /** Restores the configured keys' starting scenarios and draws. */
    reset: () => store(Object.fromEntries(Object.entries(initial()).filter(([key]) => isKey(key)))),
    /** Tells whether `key`'s scenario answers 429, spending no real quota. */
    sparesQuota: (key: string, operationId: string): boolean => behaviour(key, operationId)?.status === 429,
    /** Applies `key`'s scenario, throwing the forced or drawn error. */
    shape(
      key: string,
      operationId: string,
      headers: Headers,
      now: () => number,
      deprecation: Deprecation | undefined,
    ): Promise<Shaped> | undefined {
      const applied = behaviour(key, operationId)
      if (applied === undefined) return undefined
      const { name, latency = { min: 0, max: 0 }, errorRate = 0, kinds = ['500'], status, empty = false } = applied
      headers.set(SCENARIO_HEADER, name)
      const random = stream(key, operationId)
      const latencyDraw = random()
      const failureDraw = random()
      const kindDraw = random()
      const ms = latency.min + Math.floor(latencyDraw * (latency.max - latency.min + 1))
      const why = `scenario ${name} of this key`
      const decide = (): Shaped => {
        if (status !== undefined && status >= 400) throw forcedError(status, why, headers, now(), deprecation)
        if (failureDraw < errorRate) {
          const drawn = Number(kinds[Math.floor(kindDraw * kinds.length)] ?? 500)
          throw forcedError(drawn, why, headers, now(), deprecation)
        }
        return { empty }
      }
      return ms > 0 ? sleep(ms).then(decide) : Promise.resolve().then(decide)
    },
  }
}

export type Scenarios = ReturnType<typeof createScenarios>

/** Reads `key`'s own entry only (`__proto__` is none). */
function scenarioOf(assigned: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(assigned, key) ? assigned[key] : undefined
}

export function emptyRead(params: Record<string, string>): HttpError {
  return new HttpError(
    404,
    ErrorCode.notFound,
    `pet ${Object.values(params)[0] ?? ''} does not exist (scenario empty of this key)`,
  )
}

/** Sets each key's scenario in-process (`sandbox.scenarios.set(key, 'down')`). */
export interface SandboxScenarios {
  set(key: string, name: ScenarioName): Promise<void>
  clear(key: string): Promise<void>
  get(key: string): string | undefined
  /** Lists the scenarios, built-in first. */
  list(): Array<{ name: string; description: string }>
}
