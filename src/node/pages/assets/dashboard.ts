import type { RequestLogEntry } from '../../../core/request-log/create-request-log.js'
// The dashboard at /__sandbox/: asks for the admin token, then shows and steers the sandbox
// through the admin API, with the request log pushed as server-sent events.
import type { StateSummary } from '../../../core/admin/admin-controls.js'
import { AdminError, admin, readEvents, token } from './admin-client.js'
import type { Har } from '../../../core/request-log/to-har.js'
import { el, exchangeText, statusShown } from './dashboard-view.js'
import { faultRow } from './fault-row.js'
import { keyRow } from './key-row.js'
import { type ProxyState, renderProxyPanel } from './render-proxy-panel.js'
import { createRequestLogView, LOG_ROWS } from './request-log-view.js'

const OPERATIONS = ['listPets', 'createPet', 'getPet']
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const keysBody = $<HTMLTableElement>('keys-table').tBodies[0]!
const faultsBody = $<HTMLTableElement>('faults-table').tBodies[0]!
const keyFilter = $<HTMLSelectElement>('filter-key')
const statusFilter = $<HTMLSelectElement>('filter-status')
const log = createRequestLogView($<HTMLTableElement>('log-table').tBodies[0]!, $<HTMLCanvasElement>('chart'), statusFilter, keyFilter)
const revealed = new Set<string>()
const pickedPlans = new Map<string, string>()
let state: StateSummary | undefined
let events: AbortController | undefined
// Whether GET /__sandbox/proxy answered: only `petstore-sandbox proxy` has it (404 under `start`),
// so it is asked once when the board opens and polled only when it is there.
let proxied = false
// The contract's sunset (D18), read from /openapi.json once the board opens.
let sunset = Date.parse('2030-12-05T00:00:00Z')

async function act(what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run()
    $('message').textContent = what
    await refresh()
  } catch (error) {
    $('message').textContent = error instanceof Error ? error.message : String(error)
  }
}

function renderKeys(): void {
  if (state === undefined) return
  // A row being edited is left alone until the edit is done.
  if (keysBody.contains(document.activeElement) && document.activeElement?.tagName !== 'BUTTON') return
  const context = { nowMs: Date.parse(state.now), scenarios: state.scenarios, revealed, pickedPlans, act, rerender: renderKeys }
  keysBody.replaceChildren(...state.keys.map((entry) => keyRow(entry, context)))
  const chosen = keyFilter.value
  keyFilter.replaceChildren(
    el('option', { value: '', text: 'any' }),
    ...state.keys.map((entry) => el('option', { value: entry.masked, text: `${entry.masked} (${entry.plan})` })),
  )
  keyFilter.value = chosen
}

async function refresh(): Promise<void> {
  const current = await admin<StateSummary>('/state')
  state = current
  $('clock-now').textContent = current.now
  $('reset-what').textContent =
    `Restores ${current.seeded.pets} pets from seed ${current.seeded.seed} (now ${current.pets.count}, next id ${current.pets.nextId}), clears counters, bans and the request log.`
  renderKeys()
  if (!faultsBody.contains(document.activeElement)) faultsBody.replaceChildren(...OPERATIONS.map((operation) => faultRow(operation, current.faults, act)))
  if (proxied) renderProxyPanel(await admin<ProxyState>('/proxy'))
}

/** Shows the Proxy panel when the server is a proxy, and keeps it hidden otherwise. */
async function findProxy(): Promise<void> {
  try {
    renderProxyPanel(await admin<ProxyState>('/proxy'))
    proxied = true
  } catch (error) {
    if (!(error instanceof AdminError && error.status === 404)) throw error
    proxied = false
  }
  $('proxy').hidden = !proxied
  // Under the proxy every listed request says who answered it; under `start` the column stays away.
  $('log-source').hidden = !proxied
}

async function open(): Promise<void> {
  await findProxy()
  await refresh()
  $('login').hidden = true
  $('board').hidden = false
  log.load((await admin<{ requests: RequestLogEntry[] }>(`/requests?limit=${LOG_ROWS}`)).requests)
  events?.abort()
  const controller = new AbortController()
  events = controller
  // Reconnects after a cut (a restart, a proxy's timeout) while the dashboard is open.
  void (async () => {
    while (!controller.signal.aborted) {
      await readEvents((name, data) => {
        if (name === 'request') log.add(data as RequestLogEntry)
      }, controller.signal).catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  })()
  document.body.dataset.live = 'true'
  const contract = await (await fetch('/openapi.json')).json()
  const recorded = contract?.paths?.['/pets/{petId}']?.get?.['x-deprecation']?.sunset
  if (typeof recorded === 'string') sunset = Date.parse(recorded)
}

function signIn(problem?: string): void {
  events?.abort()
  $('board').hidden = true
  $('login').hidden = false
  $('login-error').textContent = problem ?? ''
  document.body.dataset.live = 'false'
}

$('login').addEventListener('submit', (event) => {
  event.preventDefault()
  const input = $<HTMLInputElement>('token')
  token.set(input.value)
  input.value = ''
  open().catch((error: unknown) => {
    token.clear()
    signIn(error instanceof AdminError && error.status === 401 ? 'That token was refused.' : String(error))
  })
})
$('sign-out').addEventListener('click', () => {
  token.clear()
  signIn()
})
const moveClock = (what: string, json: { set: string } | { advanceMs: number }) => act(what, () => admin('/clock', { method: 'POST', json }))
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
  button.addEventListener('click', () => moveClock(`clock moved ${button.textContent}`, { advanceMs: Number(button.dataset.advance) }))
}
$('past-sunset').addEventListener('click', () => moveClock('clock set past the sunset', { set: new Date(sunset + 86_400_000).toISOString() }))
// Real time is the machine's; the sandbox clock runs on from there.
$('real-time').addEventListener('click', () => moveClock('clock back on real time', { set: new Date().toISOString() }))
$('clock-set').addEventListener('submit', (event) => {
  event.preventDefault()
  const at = $<HTMLInputElement>('clock-at').value
  void moveClock(`clock set to ${at}`, { set: at })
})
$('reset').addEventListener('click', () =>
  act('reset done', async () => {
    await admin('/reset', { method: 'POST' })
    log.clear()
  }),
)
$('add-key').addEventListener('submit', (event) => {
  event.preventDefault()
  const formElement = event.target as HTMLFormElement
  const form = new FormData(formElement)
  const limits = Object.fromEntries(['perMinute', 'perDay'].filter((name) => form.get(name) !== '').map((name) => [name, Number(form.get(name))]))
  void act('key added', async () => {
    await admin('/keys', { method: 'POST', json: { key: form.get('key'), plan: form.get('plan'), ...limits } })
    formElement.reset()
  })
})
// One exchange of the list, as the HAR has it: masked headers and bodies of request and response.
$('log-table').addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-exchange]')
  if (button === null) return
  void (async () => {
    try {
      const har = await admin<Har>(`/requests.har?id=${encodeURIComponent(button.dataset.exchange ?? '')}`)
      const entry = har.log.entries[0]
      if (entry === undefined) return
      const { request, response } = entry
      $('exchange-summary').textContent =
        `${request.method} ${request.url} → ${response.status}, key ${entry._key}${entry._scenario ? `, scenario ${entry._scenario}` : ''}`
      $('exchange-request').textContent = exchangeText(`${request.method} ${request.url}`, request.headers, request.postData)
      $('exchange-response').textContent = exchangeText(`${response.status} ${response.statusText}`, response.headers, response.content)
      $('exchange').hidden = false
      $('exchange').scrollIntoView({ block: 'nearest' })
    } catch (error) {
      $('message').textContent = error instanceof Error ? error.message : String(error)
    }
  })()
})
$('exchange-close').addEventListener('click', () => {
  $('exchange').hidden = true
})
// What the list shows, as a file for a browser's network panel or Playwright's routeFromHAR: the
// chosen key's exchanges alone (?key=, which a replay per key needs), of the chosen status.
$('download-har').addEventListener('click', () =>
  act('HAR downloaded', async () => {
    const chosen = state?.keys.find((entry) => entry.masked === keyFilter.value)
    const har = await admin<Har>(`/requests.har${chosen === undefined ? '' : `?key=${encodeURIComponent(chosen.key)}`}`)
    har.log.entries = har.log.entries.filter((entry) => statusShown(entry.response.status, statusFilter.value))
    const link = el('a', {
      href: URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' })),
      download: chosen === undefined ? 'petstore-sandbox.har' : `petstore-sandbox-${chosen.masked.replace(/[^\w]+/g, '-')}.har`,
    })
    link.click()
    setTimeout(() => URL.revokeObjectURL(link.getAttribute('href') ?? ''), 10_000)
  }),
)
$('faults-off').addEventListener('click', () => act('all faults off', () => admin('/faults', { method: 'PUT', json: {} })))

setInterval(() => {
  if (document.body.dataset.live !== 'true') return
  log.chart()
  refresh().catch((error: unknown) => {
    if (error instanceof AdminError && error.status === 401) {
      token.clear()
      signIn('The token is no longer accepted.')
    }
  })
}, 1000)

if (token.get() === null) signIn()
else open().catch(() => signIn('Sign in again.'))
