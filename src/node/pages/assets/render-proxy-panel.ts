import type { ProxyState, ProxyTally, ShadowReport } from '../../../core/admin/admin-controls.js'
import type { LoggedViolation } from '../../../core/request-log/create-request-logger.js'
import { el } from './dashboard-view.js'

/** Fills the dashboard's Proxy panel: answers by source, violations and differences (D39), all as text. */
export function renderProxyPanel(state: ProxyState): void {
  const $ = (id: string) => document.getElementById(id)!
  $('proxy-upstream').textContent = state.upstream
  $('proxy-fallback').textContent = state.fallback ? `on (upstream timeout ${state.upstreamTimeoutMs} ms)` : 'off'
  $('proxy-answers-upstream').textContent = String(state.answers.upstream)
  $('proxy-answers-sandbox').textContent = String(state.answers.sandbox)
  const { unreachable, timeout, missing } = state.fallbacks
  $('proxy-fallbacks').textContent = `${unreachable} unreachable, ${timeout} timed out, ${missing} missing (404 or 501)`
  renderTally('violations', state.violations, (promise) => el('code', { text: promise }))
  const decisions = new Map(state.differences.recent.map((difference) => [difference.promise, difference.decisions]))
  renderTally('differences', state.differences, (promise) =>
    el('span', {}, el('code', { text: promise }), ...(decisions.has(promise) ? [` (${decisions.get(promise)})`] : [])),
  )
}

/** One table of findings: most found first, ties by name, so rows do not swap places between refreshes. */
function renderTally(
  kind: 'violations' | 'differences',
  { total, byPromise, recent }: ProxyTally<LoggedViolation>,
  name: (promise: string) => HTMLElement,
): void {
  const $ = (id: string) => document.getElementById(id)!
  $(`proxy-${kind}-total`).textContent = `(${total})`
  $(`${kind}-none`).hidden = total > 0
  $(`${kind}-table`).hidden = total === 0
  const promises = Object.entries(byPromise).sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
  const body = ($(`${kind}-table`) as HTMLTableElement).tBodies[0]!
  body.replaceChildren(
    ...promises.map(([promise, count]) => {
      const last = recent.findLast((finding) => finding.promise === promise)
      return el(
        'tr',
        { 'data-promise': promise },
        el('td', {}, name(promise)),
        el('td', { class: 'count', 'data-caption': kind, text: String(count) }),
        el(
          'td',
          {},
          ...(last === undefined
            ? [el('span', { class: 'muted', text: 'no longer among the last kept' })]
            : [
                kind === 'violations' ? `expected ${last.expected}` : `the sandbox's choice: ${last.expected}`,
                el('br'),
                el(
                  'span',
                  { class: 'muted' },
                  `${last.method} `,
                  el('code', { text: last.path }),
                  ` → ${last.status}, key ${last.key}, ${last.time}`,
                ),
              ]),
        ),
      )
    }),
  )
}

const KIND_ORDER = { behaviour: 0, spec: 1, decision: 2 } as const

/** Fills the Shadow panel (D42), behaviour first, then most found; the upstream's data goes in as text only. */
export function renderShadowPanel(report: ShadowReport): void {
  const $ = (id: string) => document.getElementById(id)!
  const unlisted = report.unlisted > 0 ? `, ${report.unlisted} more differences past the groups shown` : ''
  $('shadow-counts').textContent =
    `${report.exchanges} exchanges, ${report.compared} compared, ${report.dropped} dropped${unlisted}.`
  $('shadow-none').hidden = report.differences.length > 0
  $('shadow-table').hidden = report.differences.length === 0
  const groups = [...report.differences].sort(
    (a, b) =>
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      b.count - a.count ||
      `${a.operation} ${a.aspect}`.localeCompare(`${b.operation} ${b.aspect}`),
  )
  ;($('shadow-table') as HTMLTableElement).tBodies[0]!.replaceChildren(
    ...groups.map((group) =>
      el(
        'tr',
        { 'data-kind': group.kind },
        el('td', { text: group.decision === undefined ? group.kind : `${group.kind} (${group.decision})` }),
        el('td', {}, el('code', { text: group.operation })),
        el('td', {}, el('code', { text: group.aspect })),
        el('td', { class: 'count', text: String(group.count) }),
        el('td', {}, el('code', { text: group.upstream })),
        el('td', {}, el('code', { text: group.sandbox })),
        el(
          'td',
          { class: 'muted' },
          `${group.example.method} `,
          el('code', { text: group.example.path }),
          ` → ${group.example.upstreamStatus} / ${group.example.sandboxStatus}` +
            `${group.example.key === undefined ? '' : `, key ${group.example.key}`}, ${group.example.time}`,
        ),
      ),
    ),
  )
}
