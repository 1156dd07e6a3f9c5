import type { StateSummary } from '../../core/admin/admin-controls.js'
import { shownKey } from '../../core/auth/shown-key.js'
import { type Latency, noLatency, type ResolvedFaults } from '../../core/faults/fault-config.js'

export type InForceItem = 'pets' | 'clock' | 'scenarios' | 'prefer' | 'faults' | 'admin'

/** One thing in force: `scenarios: sandbox-free-key down`. */
export interface InForceLine {
  item: InForceItem
  label: string
  text: string
}

export interface InForceContext {
  admin: boolean
  petsFrom?: string | undefined
  origin?: string | undefined
}

const LABELS: Record<InForceItem, string> = {
  pets: 'pets',
  clock: 'clock',
  scenarios: 'scenarios',
  prefer: 'Prefer',
  faults: 'faults',
  admin: 'admin API',
}

/** Words what is in force, for the start banner and the front door. */
export function describeInForce(state: StateSummary, { admin, petsFrom, origin = '' }: InForceContext): InForceLine[] {
  const inScenario = state.keys.filter((key) => key.scenario !== undefined)
  const texts: Record<InForceItem, string> = {
    pets:
      state.seeded.source === 'generated'
        ? `${state.seeded.pets} generated (seed ${state.seeded.seed})`
        : `${state.seeded.pets} from ${petsFrom ?? 'the given list'}`,
    clock: `${state.now}, ${clockMove(state.clockOffsetMs)}`,
    scenarios:
      inScenario.length === 0 ? 'none' : inScenario.map((key) => `${shownKey(key.key)} ${key.scenario}`).join(', '),
    prefer: state.prefer
      ? "honoured: a request's Prefer: code=<status> picks its status (D30)"
      : 'ignored (--prefer honours Prefer: code=<status>)',
    faults: describeFaults(state.faults),
    admin: admin
      ? `on at ${origin}/__sandbox/ (Authorization: Bearer <admin token>)`
      : 'off (--admin-token <token> turns it on)',
  }
  return (Object.keys(LABELS) as InForceItem[]).map((item) => ({ item, label: LABELS[item], text: texts[item] }))
}

/** Says `real time`, or `1496 d 9 h ahead of real time`. */
function clockMove(offsetMs: number): string {
  if (offsetMs === 0) return 'real time'
  return `${duration(Math.abs(offsetMs))} ${offsetMs > 0 ? 'ahead of' : 'behind'} real time`
}

/** Words a span in its two largest units: `3 h 12 min`. */
function duration(ms: number): string {
  const units: Array<[string, number]> = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
    ['s', 1_000],
  ]
  const parts: string[] = []
  let rest = ms
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size)
    if (count > 0 || (parts.length > 0 && parts.length < 2)) parts.push(`${count} ${unit}`)
    rest -= count * size
    if (parts.length === 2) break
  }
  return parts.length === 0 ? `${(ms / 1000).toFixed(1)} s` : parts.join(' ')
}

/** Words the faults in force: `latency 100-400 ms, error rate 0.05 (500, 503)`. */
function describeFaults(faults: ResolvedFaults): string {
  const words = (latency: Latency) =>
    'p50' in latency
      ? `latency p50 ${latency.p50} ms, p99 ${latency.p99} ms`
      : `latency ${latency.min === latency.max ? latency.min : `${latency.min}-${latency.max}`} ms`
  const settings = (
    latency: Latency | undefined,
    errorRate: number | undefined,
    burst: number | undefined,
    kinds?: readonly string[],
  ) =>
    [
      latency !== undefined && !noLatency(latency) ? words(latency) : undefined,
      errorRate !== undefined && errorRate > 0
        ? `error rate ${errorRate}${kinds === undefined ? '' : ` (${kinds.join(', ')})`}`
        : undefined,
      burst !== undefined && errorRate !== undefined && errorRate > 0 ? `in bursts of ${burst}` : undefined,
    ].filter((part) => part !== undefined)
  const parts = [
    settings(faults.latency, faults.errorRate, faults.burst, faults.kinds).join(', '),
    ...Object.entries(faults.operations).map(([operationId, override]) => {
      const own = settings(override.latency, override.errorRate, override.burst)
      return own.length === 0 ? '' : `${operationId}: ${own.join(', ')}`
    }),
  ].filter((part) => part !== '')
  return parts.length === 0 ? 'none' : parts.join('; ')
}
