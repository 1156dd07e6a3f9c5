import { PLAN_NAMES } from '../../core/auth/plans.js'
import { html, type SafeHtml, tableHead } from './html.js'
import { pageShell } from './page-shell.js'

const SHADOW_COLUMNS = ['kind', 'operation', 'aspect', 'count', 'upstream', 'sandbox', 'example']
const SESSION_COLUMNS = ['session', 'made from', 'pets', 'next id', 'requests', 'clock', 'last used', 'bound keys']
// The source column is shown by the script when the sandbox proxies.
const LOG_COLUMNS = [
  'time',
  'status',
  html`<th scope="col" id="log-source" hidden>source</th>`,
  'method',
  'path',
  'key',
  'ms',
  'fault',
]
const STATUS_FILTERS = [
  ['', 'any'],
  ['2', '2xx'],
  ['4', '4xx'],
  ['429', '429'],
  ['5', '5xx'],
  ['0', 'dropped'],
]
const TOKEN_INPUT = html`<input id="token" name="token" type="password" required minlength="8">`
const INSTANT = html`<input id="clock-at" name="at" placeholder="2030-12-06T00:00:00Z" required>`

/** Builds the dashboard's static shell, with no data and no token; `data-proxy` says whether it has a Proxy panel. */
export function dashboardPage({ proxy }: { proxy: boolean }): SafeHtml {
  const planOptions = PLAN_NAMES.map((plan) => html`<option>${plan}</option>`)
  const statusOptions = STATUS_FILTERS.map(([value, text]) => html`<option value="${value}">${text}</option>`)
  return pageShell({
    title: 'Dashboard · petstore-sandbox',
    body: html`<header class="bar"><p class="crumbs"><a href="/">petstore-sandbox</a> · Dashboard</p></header>
<main>
<h1 class="visually-hidden">Sandbox dashboard</h1>
<form id="login" class="card" autocomplete="off">
<h2>Admin token</h2>
<p class="muted">The token the sandbox was started with (<code>--admin-token</code>). It is kept in this tab only.</p>
<div class="row"><label for="token">Admin token</label>${TOKEN_INPUT}<button type="submit">Open</button></div>
<p id="login-error" role="alert"></p>
</form>
<div id="board" hidden data-proxy="${String(proxy)}">
<section class="card" id="proxy" aria-labelledby="proxy-title" hidden>
<h2 id="proxy-title">Proxy</h2>
<dl class="facts">
<div><dt>Upstream</dt><dd><code id="proxy-upstream">…</code></dd></div>
<div><dt>Fallback</dt><dd id="proxy-fallback">…</dd></div>
<div><dt>Answered by the upstream</dt><dd id="proxy-answers-upstream">…</dd></div>
<div><dt>Answered by the sandbox</dt><dd id="proxy-answers-sandbox">…</dd></div>
<div><dt>Fallbacks</dt><dd id="proxy-fallbacks">…</dd></div>
</dl>
<h3 id="violations-title">Broken promises of the spec ${total('proxy-violations-total')}</h3>
<p id="violations-none" class="muted">None so far: every upstream answer kept the spec's promises.</p>
${emptyTable('violations-table', 'violations-title', ['promise', 'violations', 'last example'])}
<h3 id="differences-title">Decided otherwise than the sandbox ${total('proxy-differences-total')}</h3>
<p id="differences-none" class="muted">None so far: where the spec is silent, the upstream answered as the sandbox does.</p>
${emptyTable('differences-table', 'differences-title', ['promise', 'differences', 'last example'])}
</section>
<section class="card" id="shadow" aria-labelledby="shadow-title" hidden>
<h2 id="shadow-title">Shadow</h2>
<p class="muted">The sandbox's answers from a world learned from the upstream, against the upstream's own (<code>--shadow</code>): <strong>behaviour</strong> is the drift to look at.</p>
<p id="shadow-counts">…</p>
<p id="shadow-none" class="muted">No difference so far: every compared exchange agreed.</p>
${emptyTable('shadow-table', 'shadow-title', SHADOW_COLUMNS)}
</section>
<section class="card" id="sessions" aria-labelledby="sessions-title" hidden>
<h2 id="sessions-title">Sessions</h2>
<div class="row">
<label for="session">Showing session</label><select id="session"><option value="default">default</option></select>
<button type="button" id="download-capsule" class="secondary">Download capsule</button>
<button type="button" id="delete-session" class="secondary" hidden>Delete this session</button>
</div>
<p class="muted">The clock, reset, the keys' quotas and scenarios, the faults and the requests below are the shown session's (<code>X-Sandbox-Session</code>); the keys and their plans are the same in every session.</p>
${emptyTable('sessions-table', 'sessions-title', SESSION_COLUMNS)}
</section>
<div class="grid">
<section class="card" aria-labelledby="clock-title">
<h2 id="clock-title">Clock</h2>
<p>Now: <output id="clock-now">…</output></p>
<div class="row">
<button type="button" data-advance="60000" class="secondary">+1 min</button>
<button type="button" data-advance="3600000" class="secondary">+1 h</button>
<button type="button" data-advance="86400000" class="secondary">+1 day</button>
<button type="button" id="past-sunset" class="secondary">Past the sunset</button>
<button type="button" id="real-time" class="secondary">Back to real time</button>
</div>
<form id="clock-set" class="row"><label for="clock-at">Set to</label>${INSTANT}<button type="submit">Set</button></form>
</section>
<section class="card" aria-labelledby="reset-title">
<h2 id="reset-title">Reset</h2>
<p id="reset-what">…</p>
<div class="row"><button type="button" id="reset">Reset the sandbox</button><button type="button" id="sign-out" class="secondary">Forget the token</button></div>
<p id="message" role="status"></p>
</section>
</div>
<section class="card" aria-labelledby="keys-title">
<h2 id="keys-title">Keys</h2>
${emptyTable('keys-table', undefined, ['key', 'plan', 'this minute', 'today', 'scenario', 'ban', 'actions'])}
<form id="add-key" class="row">
<label for="new-key">New key</label><input id="new-key" name="key" required>
<label for="new-plan">plan</label><select id="new-plan" name="plan">${planOptions}</select>
<label for="new-minute">per minute</label><input id="new-minute" name="perMinute" type="number" min="1" size="6">
<label for="new-day">per day</label><input id="new-day" name="perDay" type="number" min="1" size="8">
<button type="submit">Add key</button>
</form>
</section>
<section class="card" aria-labelledby="faults-title">
<h2 id="faults-title">Faults</h2>
${emptyTable('faults-table', undefined, ['operation', 'latency ms (min–max)', 'error rate', 'actions'])}
<div class="row"><button type="button" id="faults-off" class="secondary">All faults off</button></div>
</section>
<section class="card" aria-labelledby="log-title">
<h2 id="log-title">Requests</h2>
<canvas id="chart" class="chart" width="600" height="90" role="img" aria-label="Requests per second by status class, last 60 seconds"></canvas>
<p class="legend"><span class="status-2">■ 2xx</span><span class="status-4">■ 4xx</span><span class="status-5">■ 5xx and dropped</span></p>
<div class="row">
<label for="filter-status">Status</label><select id="filter-status">${statusOptions}</select>
<label for="filter-key">Key</label><select id="filter-key"><option value="">any</option></select>
<button type="button" id="download-har" class="secondary">Download HAR</button>
</div>
${emptyTable('log-table', undefined, LOG_COLUMNS)}
<section id="exchange" aria-labelledby="exchange-title" hidden>
<h3 id="exchange-title">Exchange <span id="exchange-summary" class="muted"></span></h3>
<div class="grid">
<div><h4>Request</h4><pre id="exchange-request" tabindex="0"></pre></div>
<div><h4>Response</h4><pre id="exchange-response" tabindex="0"></pre></div>
</div>
<div class="row"><button type="button" id="exchange-close" class="secondary">Close</button></div>
</section>
</section>
</div>
</main>`,
    scripts: ['/assets/dashboard.js'],
  })
}

/** Writes the place of a heading's count, filled by the dashboard's script. */
function total(id: string): SafeHtml {
  return html`<span class="muted" id="${id}"></span>`
}

/** Writes an empty table for the dashboard's script to fill, labelled by a heading where it has one. */
function emptyTable(id: string, labelledBy: string | undefined, titles: readonly (string | SafeHtml)[]): SafeHtml {
  const label = labelledBy === undefined ? '' : html` aria-labelledby="${labelledBy}"`
  return html`<div class="table-scroll"><table id="${id}"${label}>${tableHead(titles)}<tbody></tbody></table></div>`
}
