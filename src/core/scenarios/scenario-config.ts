import type { KeyRing } from '../auth/create-key-ring.js'
import { noConfiguredKey } from '../auth/no-configured-key.js'
import { checkInput } from '../contract/check-input.js'
import { nearestName } from '../contract/describe-input-errors.js'
import { ConfigError } from '../errors/config-error.js'
import { DEFAULT_ERROR_KINDS, type FaultKind, type LatencyRange } from '../faults/fault-config.js'
import { checkForcible, type ForcibleStatuses } from './forced-status.js'

interface BuiltInDefinition {
  description: string
  every?: Partial<ResolvedBehaviour>
  operations?: Record<string, Partial<ResolvedBehaviour>>
}

const BUILT_IN = {
  empty: { description: 'listPets answers [], getPet 404; creates still work', every: { empty: true } },
  slow: { description: 'every answer arrives 1 to 3 s late, whole', every: { latency: { min: 1000, max: 3000 } } },
  flaky: { description: 'about one answer in three is a 500 or 503, drawn reproducibly', every: { errorRate: 1 / 3 } },
  down: { description: 'every answer is a 503 with Retry-After', every: { status: 503 } },
  sunset: { description: 'getPet answers 410, as after the sunset', operations: { getPet: { status: 410 } } },
  'rate-limited': {
    description: 'every answer is the 429 of a spent window; the real quota is not touched',
    every: { status: 429 },
  },
} satisfies Record<string, BuiltInDefinition>

export type BuiltInScenario = keyof typeof BUILT_IN

/** Lists the built-in scenarios (D29) in docs/running-for-a-team.md#scenarios's order. */
export const BUILT_IN_SCENARIOS: readonly BuiltInScenario[] = Object.keys(BUILT_IN) as BuiltInScenario[]

/** Names a built-in scenario or one in `scenarios.custom` (`--scenarios`). */
export type ScenarioName = BuiltInScenario | (string & {})

/** Says what a scenario does to one operation's answers. */
export interface ScenarioBehaviour {
  /** Delays whole answers: ms, or a range. */
  latency?: number | LatencyRange
  /** Fails this share of answers, 0 to 1. */
  errorRate?: number
  kinds?: ReadonlyArray<Exclude<FaultKind, 'drop'>>
  /** Forces every answer's status: a listed one, or any 4xx/5xx. */
  status?: number
}

/** Defines a custom scenario; `operations` overrides it by operationId. */
export interface ScenarioDefinition extends ScenarioBehaviour {
  description?: string
  operations?: Readonly<Record<string, ScenarioBehaviour>>
}

export interface ResolvedBehaviour {
  latency: LatencyRange
  errorRate: number
  kinds: Array<Exclude<FaultKind, 'drop'>>
  status?: number
  /** `empty`: listings answer `[]`, reads 404. */
  empty?: boolean
}

export interface ResolvedScenario {
  name: string
  description: string
  operations: Record<string, ResolvedBehaviour>
}

const NONE: ResolvedBehaviour = { latency: { min: 0, max: 0 }, errorRate: 0, kinds: [...DEFAULT_ERROR_KINDS] }

/** Resolves the built-in scenarios, then the checked custom ones. */
export function resolveScenarios(
  custom: unknown,
  forcible: ReadonlyMap<string, ForcibleStatuses>,
  source = 'scenarios',
): Map<string, ResolvedScenario> {
  const operationIds = [...forcible.keys()]
  const known = new Map<string, ResolvedScenario>()
  for (const [name, { description, every = {}, operations = {} }] of Object.entries(
    BUILT_IN as Record<BuiltInScenario, BuiltInDefinition>,
  )) {
    known.set(name, {
      name,
      description,
      operations: Object.fromEntries(operationIds.map((id) => [id, { ...NONE, ...every, ...operations[id] }])),
    })
  }
  if (custom === undefined) return known
  try {
    checkInput('ScenariosFile', { scenarios: custom })
  } catch (error) {
    throw error instanceof ConfigError ? new ConfigError(`${source}: ${error.message}`) : error
  }
  for (const [name, definition] of Object.entries(custom as Record<string, ScenarioDefinition>)) {
    if (known.has(name))
      throw new ConfigError(`${source}: scenarios.${name}: a built-in scenario has this name; choose another`)
    const { description = 'a custom scenario', operations = {}, ...every } = definition
    const resolved: Record<string, ResolvedBehaviour> = {}
    for (const id of operationIds) {
      const behaviour = { ...every, ...operations[id] }
      if (behaviour.status !== undefined) {
        const allowed = checkForcible(behaviour.status, forcible.get(id))
        if (allowed !== undefined)
          throw new ConfigError(
            `${source}: scenarios.${name}: ${id} cannot answer ${behaviour.status}; it may answer ${allowed}`,
          )
      }
      const latency =
        typeof behaviour.latency === 'number' ? { min: behaviour.latency, max: behaviour.latency } : behaviour.latency
      if (latency !== undefined && latency.min > latency.max)
        throw new ConfigError(`${source}: scenarios.${name}: latency min must not be above max`)
      resolved[id] = {
        latency: latency ?? NONE.latency,
        errorRate: behaviour.errorRate ?? 0,
        kinds: [...(behaviour.kinds ?? NONE.kinds)],
        ...(behaviour.status === undefined ? {} : { status: behaviour.status }),
      }
    }
    known.set(name, { name, description, operations: resolved })
  }
  return known
}

/** Says why `name` is no scenario, with the nearest name. */
export function unknownScenario(name: string, known: readonly string[]): string {
  const nearest = nearestName(name, known)
  const guess = nearest === undefined ? '' : ` did you mean ${nearest}?`
  return `unknown scenario ${JSON.stringify(name)};${guess} known: ${known.join(', ')}`
}

/** Checks `scenarios.keys` against `ring` and the known scenarios. */
export function checkScenarioKeys(
  keys: Readonly<Record<string, string>> | undefined,
  known: ReadonlyMap<string, ResolvedScenario>,
  ring: Pick<KeyRing, 'find' | 'keys'>,
): void {
  for (const [key, name] of Object.entries(keys ?? {})) {
    if (ring.find(key) === undefined) throw ConfigError.ofEntry('scenarios.keys', key, noConfiguredKey(key, ring.keys))
    if (!known.has(name)) throw ConfigError.ofEntry('scenarios.keys', key, unknownScenario(name, [...known.keys()]))
  }
}
