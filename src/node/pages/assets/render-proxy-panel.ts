import { el } from './dashboard-view.js'

/**
 * What the panel reads of `GET /__sandbox/proxy` (ProxyState in fixtures/admin-openapi.yaml). Its
 * own type, not the proxy's: the proxy serves the pages, so the pages may not import the proxy.
 */
export interface ProxyState {
  upstream: string
  fallback: boolean
  upstreamTimeoutMs: number
  answers: { upstream: number; sandbox: number }
  fallbacks: { unreachable: number; timeout: number; missing: number }
  violations: {
    total: number
    byPromise: Record<string, number>
    recent: Array<{ time: string; promise: string; expected: string; method: string; path: string; status: number; key: string }>
  }
}

/**
 * Fills the dashboard's Proxy panel: the upstream, fallback, answers by source, and the violations
 * per promise with the last one kept of each. The upstream's data goes in as text only.
 */
export function renderProxyPanel(state: ProxyState): void {
  const $ = (id: string) => document.getElementById(id)!
  $('proxy-upstream').textContent = state.upstream
  $('proxy-fallback').textContent = state.fallback ? `on (upstream timeout ${state.upstreamTimeoutMs} ms)` : 'off'
  $('proxy-answers-upstream').textContent = String(state.answers.upstream)
  $('proxy-answers-sandbox').textContent = String(state.answers.sandbox)
  const { unreachable, timeout, missing } = state.fallbacks
  $('proxy-fallbacks').textContent = `${unreachable} unreachable, ${timeout} timed out, ${missing} missing (404 or 501)`
  const { total, byPromise, recent } = state.violations
  $('proxy-violations-total').textContent = `(${total})`
  $('violations-none').hidden = total > 0
  $('violations-table').hidden = total === 0
  // Most broken first; ties by name, so rows do not swap places between refreshes.
  const promises = Object.entries(byPromise).sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
  const body = ($('violations-table') as HTMLTableElement).tBodies[0]!
  body.replaceChildren(
    ...promises.map(([promise, count]) => {
      const last = recent.findLast((violation) => violation.promise === promise)
      return el(
        'tr',
        { 'data-promise': promise },
        el('td', {}, el('code', { text: promise })),
        el('td', { class: 'count', 'data-caption': 'violations', text: String(count) }),
        el(
          'td',
          {},
          ...(last === undefined
            ? [el('span', { class: 'muted', text: 'no longer among the last kept' })]
            : [
                `expected ${last.expected}`,
                el('br'),
                el('span', { class: 'muted' }, `${last.method} `, el('code', { text: last.path }), ` → ${last.status}, key ${last.key}, ${last.time}`),
              ]),
        ),
      )
    }),
  )
}
