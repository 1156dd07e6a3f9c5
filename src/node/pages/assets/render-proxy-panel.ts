import type { ProxyState, ProxyTally } from '../../../core/admin/admin-controls.js'
import type { LoggedViolation } from '../../../core/request-log/create-request-logger.js'
import { el } from './dashboard-view.js'

/**
 * Fills the dashboard's Proxy panel: the upstream, fallback, answers by source, the violations of
 * the spec per promise and, apart, the open points decided otherwise than the sandbox (D39), each
 * with the last one kept. The upstream's data goes in as text only.
 */
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
                el('span', { class: 'muted' }, `${last.method} `, el('code', { text: last.path }), ` → ${last.status}, key ${last.key}, ${last.time}`),
              ]),
        ),
      )
    }),
  )
}
