import type { OperationFaults, ResolvedFaults } from '../../../core/faults/fault-config.js'
import { admin } from './admin-client.js'
import { el } from './dashboard-view.js'

/** One operation's faults: latency range and error rate, switched on or off through PUT /faults. */
export function faultRow(
  operation: string,
  faults: ResolvedFaults,
  act: (what: string, run: () => Promise<unknown>) => Promise<void>,
): HTMLElement {
  const own = faults.operations[operation] ?? {}
  const latency = own.latency ?? faults.latency
  const number = (label: string, value: number, extra: Record<string, string>) =>
    el('input', {
      type: 'number',
      min: '0',
      value: String(value),
      'aria-label': `${operation} ${label}`,
      ...extra,
    }) as HTMLInputElement
  // Percentiles (docs/decisions.md#d45) are edited as percentiles, a range as a range.
  const percentiles = 'p50' in latency
  const min = number(percentiles ? 'latency p50' : 'minimum latency', percentiles ? latency.p50 : latency.min, {
    max: '60000',
  })
  const max = number(percentiles ? 'latency p99' : 'maximum latency', percentiles ? latency.p99 : latency.max, {
    max: '60000',
  })
  const rate = number('error rate', own.errorRate ?? faults.errorRate, { max: '1', step: '0.05' })
  // The whole configuration goes back with this operation's entry replaced: PUT replaces it all.
  const put = (what: string, entry: OperationFaults) =>
    act(what, () =>
      admin('/faults', {
        method: 'PUT',
        json: { ...faults, operations: { ...faults.operations, [operation]: entry } },
      }),
    )
  const on = el('button', { type: 'button', class: 'secondary', text: 'On' })
  on.addEventListener('click', () =>
    put(`faults on for ${operation}`, {
      latency: percentiles
        ? { p50: Number(min.value), p99: Number(max.value) }
        : { min: Number(min.value), max: Number(max.value) },
      errorRate: Number(rate.value),
      ...(own.burst === undefined ? {} : { burst: own.burst }),
    }),
  )
  const off = el('button', { type: 'button', class: 'secondary', text: 'Off' })
  off.addEventListener('click', () => put(`faults off for ${operation}`, { latency: { min: 0, max: 0 }, errorRate: 0 }))
  return el(
    'tr',
    {},
    el('td', {}, el('code', { text: operation })),
    el('td', {}, el('span', { class: 'row' }, min, '–', max)),
    el('td', {}, rate),
    el('td', {}, el('span', { class: 'row' }, on, off)),
  )
}
