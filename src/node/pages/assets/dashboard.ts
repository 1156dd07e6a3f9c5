// The dashboard at /__sandbox/: asks for the admin token, then shows and steers the sandbox
// through the admin API, with the request log pushed as server-sent events.
import { AdminError, admin, readEvents, token } from './admin-client.js'
import { drawChart, el, type LogEntry, logRow, meter, shown, until } from './dashboard-view.js'

interface Window_ {
  limit: number
  used: number
  remaining: number
  reset: number
}
interface KeyState {
  key: string
  masked: string
  plan: string
  perMinute: number
  perDay: number
  quota: { banned: boolean; bannedUntil?: number; minute: Window_; day: Window_ }
}
interface OperationFaults {
  latency?: { min: number; max: number }
  errorRate?: number
}
interface Faults {
  latency: { min: number; max: number }
  errorRate: number
  kinds: string[]
  operations: Record<string, OperationFaults>
  seed: number
}
interface State {
  now: string
  pets: { count: number; nextId: number }
  seeded: { seed: number; pets: number }
  keys: KeyState[]
  faults: Faults
}

const OPERATIONS = ['listPets', 'createPet', 'getPet']
const LOG_ROWS = 200
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const logBody = $<HTMLTableElement>('log-table').tBodies[0]!
const keysBody = $<HTMLTableElement>('keys-table').tBodies[0]!
const faultsBody = $<HTMLTableElement>('faults-table').tBodies[0]!
const revealed = new Set<string>()
let state: State | undefined
let entries: LogEntry[] = []
let perSecond = new Map<number, { ok: number; client: number; server: number }>()
let events: AbortController | undefined
let sunset = Date.parse('2030-12-05T00:00:00Z')

function say(text: string): void {
  $('message').textContent = text
}

async function act(what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run()
    say(what)
    await refresh()
  } catch (error) {
    say(error instanceof Error ? error.message : String(error))
  }
}

function renderLog(): void {
  const status = $<HTMLSelectElement>('filter-status').value
  const key = $<HTMLSelectElement>('filter-key').value
  logBody.replaceChildren(...entries.filter((entry) => shown(entry, status, key)).map(logRow))
}

function chart(): void {
  const now = Math.floor(Date.now() / 1000)
  const seconds = []
  for (let t = now - 59; t <= now; t++) seconds.push(perSecond.get(t) ?? { ok: 0, client: 0, server: 0 })
  for (const t of perSecond.keys()) if (t < now - 60) perSecond.delete(t)
  drawChart($<HTMLCanvasElement>('chart'), seconds)
}

function record(entry: LogEntry): void {
  entries.unshift(entry)
  if (entries.length > LOG_ROWS) entries.length = LOG_ROWS
  const second = Math.floor(Date.now() / 1000)
  const counts = perSecond.get(second) ?? { ok: 0, client: 0, server: 0 }
  if (entry.status >= 200 && entry.status < 400) counts.ok++
  else if (entry.status >= 400 && entry.status < 500) counts.client++
  else counts.server++
  perSecond.set(second, counts)
  renderLog()
  chart()
}

function keyRow(entry: KeyState, nowMs: number): HTMLElement {
  const path = `/keys/${encodeURIComponent(entry.key)}`
  const name = el('code', { text: revealed.has(entry.key) ? entry.key : entry.masked })
  const reveal = el('button', {
    type: 'button',
    class: 'secondary',
    text: revealed.has(entry.key) ? 'Hide' : 'Reveal',
    'aria-label': `Reveal key ${entry.masked}`,
  })
  reveal.addEventListener('click', () => {
    if (revealed.has(entry.key)) revealed.delete(entry.key)
    else revealed.add(entry.key)
    renderKeys()
  })
  const plan = el('select', { 'aria-label': `Plan of ${entry.masked}` }) as HTMLSelectElement
  for (const option of ['free', 'pro', 'business', 'enterprise']) plan.append(el('option', { text: option }))
  plan.value = entry.plan
  const changePlan = el('button', { type: 'button', class: 'secondary', text: 'Change plan' })
  changePlan.addEventListener('click', () => {
    const limits = plan.value === 'enterprise' ? { perMinute: entry.perMinute, perDay: entry.perDay } : {}
    void act(`${entry.masked} is now on ${plan.value}`, () => admin(`${path}/plan`, { method: 'PUT', json: { plan: plan.value, ...limits } }))
  })
  const remaining = el('input', {
    type: 'number',
    min: '0',
    size: '5',
    'aria-label': `Remaining for ${entry.masked}`,
    value: String(entry.quota.minute.remaining),
  }) as HTMLInputElement
  const setRemaining = el('button', { type: 'button', class: 'secondary', text: 'Set remaining' })
  setRemaining.addEventListener('click', () =>
    act(`${entry.masked}: ${remaining.value} left`, () => admin(path, { method: 'PATCH', json: { remaining: Number(remaining.value) } })),
  )
  const ban = el('button', { type: 'button', class: 'secondary', text: entry.quota.banned ? 'Lift ban' : 'Ban' })
  ban.addEventListener('click', () =>
    act(entry.quota.banned ? `${entry.masked} unbanned` : `${entry.masked} banned`, () =>
      admin(path, { method: 'PATCH', json: { banned: !entry.quota.banned } }),
    ),
  )
  const revoke = el('button', { type: 'button', class: 'secondary', text: 'Revoke' })
  revoke.addEventListener('click', () => act(`${entry.masked} revoked`, () => admin(path, { method: 'DELETE' })))
  const { minute, day } = entry.quota
  return el(
    'tr',
    { 'data-key': entry.masked },
    el('td', {}, name, ' ', reveal),
    el('td', {}, el('span', { class: 'row' }, plan, changePlan)),
    el(
      'td',
      {},
      meter(`Used this minute by ${entry.masked}`, minute.used, minute.limit),
      el('span', { class: 'muted', text: ` resets ${until(minute.reset, nowMs)}` }),
    ),
    el('td', {}, meter(`Used today by ${entry.masked}`, day.used, day.limit), el('span', { class: 'muted', text: ` resets ${until(day.reset, nowMs)}` })),
    el('td', {
      class: 'ban',
      text: entry.quota.banned && entry.quota.bannedUntil ? `until ${new Date(entry.quota.bannedUntil).toISOString().slice(11, 19)}` : '—',
    }),
    el('td', {}, el('span', { class: 'row' }, remaining, setRemaining, ban, revoke)),
  )
}

function renderKeys(): void {
  if (state === undefined) return
  // A row being edited is left alone until the edit is done.
  if (keysBody.contains(document.activeElement) && document.activeElement?.tagName !== 'BUTTON') return
  const nowMs = Date.parse(state.now)
  keysBody.replaceChildren(...state.keys.map((entry) => keyRow(entry, nowMs)))
  const filter = $<HTMLSelectElement>('filter-key')
  const chosen = filter.value
  filter.replaceChildren(
    el('option', { value: '', text: 'any' }),
    ...state.keys.map((entry) => el('option', { value: entry.masked, text: `${entry.masked} (${entry.plan})` })),
  )
  filter.value = chosen
}

function faultRow(operation: string, faults: Faults): HTMLElement {
  const own = faults.operations[operation] ?? {}
  const latency = own.latency ?? faults.latency
  const min = el('input', {
    type: 'number',
    min: '0',
    max: '60000',
    size: '5',
    value: String(latency.min),
    'aria-label': `${operation} minimum latency`,
  }) as HTMLInputElement
  const max = el('input', {
    type: 'number',
    min: '0',
    max: '60000',
    size: '5',
    value: String(latency.max),
    'aria-label': `${operation} maximum latency`,
  }) as HTMLInputElement
  const rate = el('input', {
    type: 'number',
    min: '0',
    max: '1',
    step: '0.05',
    size: '4',
    value: String(own.errorRate ?? faults.errorRate),
    'aria-label': `${operation} error rate`,
  }) as HTMLInputElement
  const apply = el('button', { type: 'button', class: 'secondary', text: 'On' })
  apply.addEventListener('click', () => {
    const operations = { ...faults.operations, [operation]: { latency: { min: Number(min.value), max: Number(max.value) }, errorRate: Number(rate.value) } }
    void act(`faults on for ${operation}`, () => admin('/faults', { method: 'PUT', json: { ...faults, operations } }))
  })
  const off = el('button', { type: 'button', class: 'secondary', text: 'Off' })
  off.addEventListener('click', () => {
    const operations = { ...faults.operations, [operation]: { latency: { min: 0, max: 0 }, errorRate: 0 } }
    void act(`faults off for ${operation}`, () => admin('/faults', { method: 'PUT', json: { ...faults, operations } }))
  })
  return el(
    'tr',
    {},
    el('td', {}, el('code', { text: operation })),
    el('td', {}, el('span', { class: 'row' }, min, '–', max)),
    el('td', {}, rate),
    el('td', {}, el('span', { class: 'row' }, apply, off)),
  )
}

async function refresh(): Promise<void> {
  state = await admin<State>('/state')
  $('clock-now').textContent = state.now
  $('reset-what').textContent =
    `Restores ${state.seeded.pets} pets from seed ${state.seeded.seed} (now ${state.pets.count}, next id ${state.pets.nextId}), clears counters, bans and the request log.`
  renderKeys()
  if (!faultsBody.contains(document.activeElement)) faultsBody.replaceChildren(...OPERATIONS.map((operation) => faultRow(operation, state!.faults)))
}

async function open(): Promise<void> {
  await refresh()
  $('login').hidden = true
  $('board').hidden = false
  entries = (await admin<{ requests: LogEntry[] }>(`/requests?limit=${LOG_ROWS}`)).requests.reverse()
  renderLog()
  events?.abort()
  const controller = new AbortController()
  events = controller
  // Reconnects after a cut (a restart, a proxy's timeout) while the dashboard is open.
  void (async () => {
    while (!controller.signal.aborted) {
      await readEvents((name, data) => {
        if (name === 'request') record(data as LogEntry)
      }, controller.signal).catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  })()
  document.body.dataset.live = 'true'
  // The sunset the contract records, for "past the sunset".
  const document_ = await (await fetch('/openapi.json')).json()
  const recorded = document_?.paths?.['/pets/{petId}']?.get?.['x-deprecation']?.sunset
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
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
  button.addEventListener('click', () =>
    act(`clock moved ${button.textContent}`, () => admin('/clock', { method: 'POST', json: { advanceMs: Number(button.dataset.advance) } })),
  )
}
$('past-sunset').addEventListener('click', () =>
  act('clock set past the sunset', () => admin('/clock', { method: 'POST', json: { set: new Date(sunset + 86_400_000).toISOString() } })),
)
$('real-time').addEventListener('click', () =>
  act('clock back on real time', async () => {
    // Real time is what the machine says; the sandbox clock keeps running from there.
    await admin('/clock', { method: 'POST', json: { set: new Date().toISOString() } })
  }),
)
$('clock-set').addEventListener('submit', (event) => {
  event.preventDefault()
  const at = $<HTMLInputElement>('clock-at')
  void act(`clock set to ${at.value}`, () => admin('/clock', { method: 'POST', json: { set: at.value } }))
})
$('reset').addEventListener('click', () =>
  act('reset done', async () => {
    await admin('/reset', { method: 'POST' })
    entries = []
    perSecond = new Map()
    renderLog()
    chart()
  }),
)
$('add-key').addEventListener('submit', (event) => {
  event.preventDefault()
  const form = new FormData(event.target as HTMLFormElement)
  const limits = Object.fromEntries(['perMinute', 'perDay'].filter((name) => form.get(name) !== '').map((name) => [name, Number(form.get(name))]))
  void act('key added', () => admin('/keys', { method: 'POST', json: { key: form.get('key'), plan: form.get('plan'), ...limits } })).then(() =>
    (event.target as HTMLFormElement).reset(),
  )
})
$('faults-off').addEventListener('click', () => act('all faults off', () => admin('/faults', { method: 'PUT', json: {} })))
$('filter-status').addEventListener('change', renderLog)
$('filter-key').addEventListener('change', renderLog)

setInterval(() => {
  if (document.body.dataset.live !== 'true') return
  chart()
  refresh().catch((error: unknown) => {
    if (error instanceof AdminError && error.status === 401) {
      token.clear()
      signIn('The token is no longer accepted.')
    }
  })
}, 1000)

if (token.get() === null) signIn()
else open().catch(() => signIn('Sign in again.'))
