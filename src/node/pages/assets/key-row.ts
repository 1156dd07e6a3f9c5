import type { KeySummary } from '../../../core/admin/admin-controls.js'
import { admin } from './admin-client.js'
import { el, meter, until } from './dashboard-view.js'

export interface KeyRowContext {
  /** The sandbox clock, epoch ms, for the time to each reset. */
  nowMs: number
  /** The scenarios a key can be put in (D29). */
  scenarios: ReadonlyArray<{ name: string; description: string }>
  /** Keys the user chose to see whole; the others show masked. */
  revealed: Set<string>
  /** Keeps plans picked and not yet applied, so the refresh every second does not undo a pick. */
  pickedPlans: Map<string, string>
  /** Runs an admin call, then says `what` and refreshes the board. */
  act(what: string, run: () => Promise<unknown>): Promise<void>
  rerender(): void
}

/** One key of the dashboard: masked name and reveal, plan, usage bars, ban, and its actions. */
export function keyRow(
  entry: KeySummary,
  { nowMs, scenarios, revealed, pickedPlans, act, rerender }: KeyRowContext,
): HTMLElement {
  const path = `/keys/${encodeURIComponent(entry.key)}`
  const shown = revealed.has(entry.key)
  const reveal = el('button', {
    type: 'button',
    class: 'secondary',
    text: shown ? 'Hide' : 'Reveal',
    'aria-label': `${shown ? 'Hide' : 'Reveal'} key ${entry.masked}`,
  })
  reveal.addEventListener('click', () => {
    if (shown) revealed.delete(entry.key)
    else revealed.add(entry.key)
    rerender()
  })
  const plan = el('select', { 'aria-label': `Plan of ${entry.masked}` }) as HTMLSelectElement
  for (const option of ['free', 'pro', 'business', 'enterprise']) plan.append(el('option', { text: option }))
  plan.value = pickedPlans.get(entry.key) ?? entry.plan
  plan.addEventListener('change', () => pickedPlans.set(entry.key, plan.value))
  const changePlan = el('button', { type: 'button', class: 'secondary', text: 'Change plan' })
  changePlan.addEventListener('click', () => {
    pickedPlans.delete(entry.key)
    // Enterprise limits are agreed per key: a key moving there keeps its own.
    const limits = plan.value === 'enterprise' ? { perMinute: entry.perMinute, perDay: entry.perDay } : {}
    void act(`${entry.masked} is now on ${plan.value}`, () =>
      admin(`${path}/plan`, { method: 'PUT', json: { plan: plan.value, ...limits } }),
    )
  })
  // Picking a scenario applies it at once: it changes what this key sees, and nothing else.
  const scenario = el('select', { 'aria-label': `Scenario of ${entry.masked}` }) as HTMLSelectElement
  scenario.append(el('option', { value: '', text: 'none' }))
  for (const known of scenarios)
    scenario.append(el('option', { value: known.name, text: known.name, title: known.description }))
  scenario.value = entry.scenario ?? ''
  scenario.addEventListener('change', () =>
    act(scenario.value === '' ? `${entry.masked}: no scenario` : `${entry.masked}: scenario ${scenario.value}`, () =>
      admin(
        `${path}/scenario`,
        scenario.value === '' ? { method: 'DELETE' } : { method: 'PUT', json: { name: scenario.value } },
      ),
    ),
  )
  const remaining = el('input', {
    type: 'number',
    min: '0',
    'aria-label': `Remaining for ${entry.masked}`,
    value: String(entry.quota.minute.remaining),
  }) as HTMLInputElement
  const setRemaining = el('button', { type: 'button', class: 'secondary', text: 'Set remaining' })
  setRemaining.addEventListener('click', () =>
    act(`${entry.masked}: ${remaining.value} left`, () =>
      admin(path, { method: 'PATCH', json: { remaining: Number(remaining.value) } }),
    ),
  )
  const { banned, bannedUntil, minute, day } = entry.quota
  const ban = el('button', { type: 'button', class: 'secondary', text: banned ? 'Lift ban' : 'Ban' })
  ban.addEventListener('click', () =>
    act(banned ? `${entry.masked} unbanned` : `${entry.masked} banned`, () =>
      admin(path, { method: 'PATCH', json: { banned: !banned } }),
    ),
  )
  const revoke = el('button', { type: 'button', class: 'secondary', text: 'Revoke' })
  revoke.addEventListener('click', () => act(`${entry.masked} revoked`, () => admin(path, { method: 'DELETE' })))
  return el(
    'tr',
    { 'data-key': entry.masked },
    el('td', {}, el('code', { text: shown ? entry.key : entry.masked }), ' ', reveal),
    el('td', {}, el('span', { class: 'row' }, plan, changePlan)),
    el(
      'td',
      {},
      meter('minute', `Used this minute by ${entry.masked}`, minute.used, minute.limit),
      el('span', { class: 'muted', text: ` resets ${until(minute.reset, nowMs)}` }),
    ),
    el(
      'td',
      {},
      meter('day', `Used today by ${entry.masked}`, day.used, day.limit),
      el('span', { class: 'muted', text: ` resets ${until(day.reset, nowMs)}` }),
    ),
    el('td', { 'data-caption': 'scenario' }, scenario),
    el('td', {
      class: 'ban',
      'data-caption': 'ban',
      text: banned && bannedUntil ? `until ${new Date(bannedUntil).toISOString().slice(11, 19)}` : '—',
    }),
    el('td', {}, el('span', { class: 'row' }, remaining, setRemaining, ban, revoke)),
  )
}
