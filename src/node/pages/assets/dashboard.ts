import type { RequestLogEntry } from '../../../core/request-log/create-request-log.js'
// Runs the dashboard at /__sandbox/ over the admin API.
import type { ProxyState, SessionSummary, ShadowReport, StateSummary } from '../../../core/admin/admin-controls.js'
import { AdminError, admin, readEvents, session, token } from './admin-client.js'
import type { OperationId } from '../../../core/operations/operation-table.js'
import type { Har } from '../../../core/request-log/to-har.js'
import { el, exchangeText, statusShown } from './dashboard-view.js'
import { faultRow } from './fault-row.js'
import { keyRow } from './key-row.js'
import { renderProxyPanel, renderShadowPanel } from './render-proxy-panel.js'
import { createRequestLogView, LOG_ROWS } from './request-log-view.js'
import { originText, renderSessions } from './session-panel.js'

// The compiler names an operation the table lacks.
const OPERATIONS = Object.keys({ listPets: true, createPet: true, getPet: true } satisfies Record<OperationId, true>)
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const keysBody = $<HTMLTableElement>('keys-table').tBodies[0]!
const faultsBody = $<HTMLTableElement>('faults-table').tBodies[0]!
const keyFilter = $<HTMLSelectElement>('filter-key')
const statusFilter = $<HTMLSelectElement>('filter-status')
const log = createRequestLogView(
  $<HTMLTableElement>('log-table').tBodies[0]!,
  $<HTMLCanvasElement>('chart'),
  statusFilter,
  keyFilter,
)
const sessionPicker = $<HTMLSelectElement>('session')
const revealed = new Set<string>()
const pickedPlans = new Map<string, string>()
let state: StateSummary | undefined
// Undefined where the server keeps no sessions (the proxy).
let sessions: SessionSummary[] | undefined
// Listed with another time, a session is a new one of that name.
let shownCreated: string | undefined
let events: AbortController | undefined
let proxied = false
let shadowed = false
let sunset = Date.parse('2030-12-05T00:00:00Z')

// Takes turns: a refresh naming a session just deleted would make it anew.
let turn: Promise<unknown> = Promise.resolve()
let waiting = 0
function inTurn<T>(run: () => Promise<T>): Promise<T> {
  waiting++
  const next = turn.then(run).finally(() => {
    waiting--
  })
  turn = next.catch(() => undefined)
  return next
}

function act(what: string, run: () => Promise<unknown>): Promise<void> {
  return inTurn(async () => {
    try {
      await run()
      $('message').textContent = what
      await refresh()
    } catch (error) {
      $('message').textContent = error instanceof Error ? error.message : String(error)
    }
  })
}

function pickSession(name: string): void {
  inTurn(() => show(name)).catch((error: unknown) => {
    $('message').textContent = error instanceof Error ? error.message : String(error)
  })
}

function renderKeys(): void {
  if (state === undefined) return
  // A row being edited is left alone until the edit is done.
  if (keysBody.contains(document.activeElement) && document.activeElement?.tagName !== 'BUTTON') return
  const context = {
    nowMs: Date.parse(state.now),
    scenarios: state.scenarios,
    revealed,
    pickedPlans,
    act,
    rerender: renderKeys,
  }
  keysBody.replaceChildren(...state.keys.map((entry) => keyRow(entry, context)))
  const chosen = keyFilter.value
  keyFilter.replaceChildren(
    el('option', { value: '', text: 'any' }),
    ...state.keys.map((entry) => el('option', { value: entry.masked, text: `${entry.masked} (${entry.plan})` })),
  )
  keyFilter.value = chosen
}

/** Reads the sessions; a picked one gone is not asked for again, which would make it anew. */
async function refreshSessions(): Promise<void> {
  try {
    sessions = (await admin<{ sessions: SessionSummary[] }>('/sessions')).sessions
  } catch (error) {
    if (!(error instanceof AdminError && (error.status === 404 || error.status === 501))) throw error
    sessions = undefined
  }
  $('sessions').hidden = sessions === undefined
  if (sessions === undefined) return
  const picked = session.get()
  const summary = sessions.find((entry) => entry.name === picked)
  if (summary === undefined || (shownCreated !== undefined && summary.created !== shownCreated)) {
    await show('default')
    $('message').textContent =
      `Session ${picked} is gone (deleted, replaced, idle or over --max-sessions): showing the default session.`
    return
  }
  shownCreated = summary.created
  renderSessions(sessions, picked, {
    body: $<HTMLTableElement>('sessions-table').tBodies[0]!,
    picker: sessionPicker,
    pick: pickSession,
  })
  $('delete-session').hidden = picked === 'default'
}

async function refresh(): Promise<void> {
  await refreshSessions()
  const current = await admin<StateSummary>('/state')
  state = current
  $('clock-now').textContent = current.now
  const summary = sessions?.find((entry) => entry.name === current.session)
  const origin = summary === undefined ? 'its origin' : originText(summary)
  $('reset-what').textContent =
    current.session === 'default'
      ? `Restores ${current.seeded.pets} pets from seed ${current.seeded.seed} ` +
        `(now ${current.pets.count}, next id ${current.pets.nextId}), clears counters, bans and the request log.`
      : `Returns session ${current.session} to ${origin} ` +
        `(now ${current.pets.count} pets, next id ${current.pets.nextId}), ` +
        'clears its counters, bans and requests; its clock stays.'
  $('reset').textContent = current.session === 'default' ? 'Reset the sandbox' : `Reset session ${current.session}`
  renderKeys()
  if (!faultsBody.contains(document.activeElement))
    faultsBody.replaceChildren(...OPERATIONS.map((operation) => faultRow(operation, current.faults, act)))
  if (proxied) renderProxyPanel(await admin<ProxyState>('/proxy'))
  if (shadowed) renderShadowPanel(await admin<ShadowReport>('/shadow'))
}

async function findProxy(): Promise<void> {
  proxied = $('board').dataset.proxy === 'true'
  if (proxied) renderProxyPanel(await admin<ProxyState>('/proxy'))
  $('proxy').hidden = !proxied
  try {
    if (proxied) renderShadowPanel(await admin<ShadowReport>('/shadow'))
    shadowed = proxied
  } catch (error) {
    if (!(error instanceof AdminError && error.status === 404)) throw error
    shadowed = false
  }
  $('shadow').hidden = !shadowed
  $('log-source').hidden = !proxied
}

/** Follows the picked session's stream, then loads its kept requests: the other order would lose some. */
async function follow(): Promise<void> {
  events?.abort()
  log.clear()
  const controller = new AbortController()
  events = controller
  let opened: () => void = () => undefined
  const open = new Promise<void>((resolve) => {
    opened = resolve
  })
  void (async () => {
    while (!controller.signal.aborted) {
      await readEvents(
        (name, data) => {
          // The previous session's.
          if (name === 'request' && !controller.signal.aborted) log.add(data as RequestLogEntry)
        },
        controller.signal,
        opened,
      ).catch(() => undefined)
      // A stream refused still lets the list load.
      opened()
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  })()
  await open
  const { requests } = await admin<{ requests: RequestLogEntry[] }>(`/requests?limit=${LOG_ROWS}`)
  if (!controller.signal.aborted) log.load(requests)
}

async function show(name: string): Promise<void> {
  session.set(name)
  shownCreated = undefined
  sessionPicker.value = name
  $('exchange').hidden = true
  await follow()
  await refresh()
  document.body.dataset.session = name
}

async function open(): Promise<void> {
  await findProxy()
  await refresh()
  $('login').hidden = true
  $('board').hidden = false
  await follow()
  document.body.dataset.session = session.get()
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
const moveClock = (what: string, json: { set: string } | { advanceMs: number }) =>
  act(what, () => admin('/clock', { method: 'POST', json }))
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
  button.addEventListener('click', () =>
    moveClock(`clock moved ${button.textContent}`, { advanceMs: Number(button.dataset.advance) }),
  )
}
$('past-sunset').addEventListener('click', () =>
  moveClock('clock set past the sunset', { set: new Date(sunset + 86_400_000).toISOString() }),
)
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
  const limits = Object.fromEntries(
    ['perMinute', 'perDay'].filter((name) => form.get(name) !== '').map((name) => [name, Number(form.get(name))]),
  )
  void act('key added', async () => {
    await admin('/keys', { method: 'POST', json: { key: form.get('key'), plan: form.get('plan'), ...limits } })
    formElement.reset()
  })
})
$('log-table').addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-exchange]')
  if (button === null) return
  void (async () => {
    try {
      const har = await admin<Har>(`/requests.har?id=${encodeURIComponent(button.dataset.exchange ?? '')}`)
      const entry = har.log.entries[0]
      if (entry === undefined) return
      const { request, response } = entry
      const scenario = entry._scenario ? `, scenario ${entry._scenario}` : ''
      $('exchange-summary').textContent =
        `${request.method} ${request.url} → ${response.status}, key ${entry._key}${scenario}`
      $('exchange-request').textContent = exchangeText(
        `${request.method} ${request.url}`,
        request.headers,
        request.postData,
      )
      $('exchange-response').textContent = exchangeText(
        `${response.status} ${response.statusText}`,
        response.headers,
        response.content,
      )
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
// What the list shows, as a HAR file; ?key= as a replay per key needs.
$('download-har').addEventListener('click', () =>
  act('HAR downloaded', async () => {
    const chosen = state?.keys.find((entry) => entry.masked === keyFilter.value)
    const har = await admin<Har>(`/requests.har${chosen === undefined ? '' : `?key=${encodeURIComponent(chosen.key)}`}`)
    har.log.entries = har.log.entries.filter((entry) => statusShown(entry.response.status, statusFilter.value))
    const named = session.get() === 'default' ? [] : [session.get()]
    const parts = [
      'petstore-sandbox',
      ...named,
      ...(chosen === undefined ? [] : [chosen.masked.replace(/[^\w]+/g, '-')]),
    ]
    download(JSON.stringify(har, null, 2), `${parts.join('-')}.har`)
  }),
)

function download(text: string, name: string): void {
  const link = el('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/json' })), download: name })
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.getAttribute('href') ?? ''), 10_000)
}
sessionPicker.addEventListener('change', () => pickSession(sessionPicker.value))
// A capsule, restored by PUT /__sandbox/sessions/{name} or `start --from`.
$('download-capsule').addEventListener('click', () =>
  act('capsule downloaded', async () => {
    const name = session.get()
    const capsule = await admin<unknown>(`/sessions/${encodeURIComponent(name)}/capsule`)
    download(JSON.stringify(capsule, null, 2), `petstore-sandbox-${name}.capsule.json`)
  }),
)
$('delete-session').addEventListener('click', () =>
  act('session deleted', async () => {
    const name = session.get()
    await admin(`/sessions/${encodeURIComponent(name)}`, { method: 'DELETE' })
    await show('default')
  }),
)
$('faults-off').addEventListener('click', () =>
  act('all faults off', () => admin('/faults', { method: 'PUT', json: {} })),
)

setInterval(() => {
  if (document.body.dataset.live !== 'true') return
  log.chart()
  // A refresh still running, or a user's call waiting, makes this one needless.
  if (waiting > 0) return
  inTurn(refresh).catch((error: unknown) => {
    if (error instanceof AdminError && error.status === 401) {
      token.clear()
      signIn('The token is no longer accepted.')
    }
  })
}, 1000)

if (token.get() === null) signIn()
else open().catch(() => signIn('Sign in again.'))
