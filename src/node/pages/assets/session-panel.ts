import type { SessionSummary } from '../../../core/admin/admin-controls.js'
import { el } from './dashboard-view.js'

/** Words what a session's `reset()` returns to: the start-up pets, a fork's source, or a capsule. */
export function originText(summary: SessionSummary): string {
  switch (summary.origin) {
    case 'start-up':
      return 'the start-up world'
    case 'fork':
      return summary.from === undefined ? 'a fork' : `a fork of ${summary.from}`
    case 'capsule':
      return 'a capsule'
  }
}

/** Renders the Sessions card (D34): a row per session as `GET /__sandbox/sessions` lists them, one picked. */
export function renderSessions(
  sessions: readonly SessionSummary[],
  picked: string,
  { body, picker, pick }: { body: HTMLTableSectionElement; picker: HTMLSelectElement; pick(name: string): void },
): void {
  body.replaceChildren(
    ...sessions.map((summary) => {
      const show = el('button', {
        type: 'button',
        class: 'link',
        'aria-label': `Show session ${summary.name}`,
        ...(summary.name === picked ? { 'aria-current': 'true' } : {}),
      })
      show.append(el('code', { text: summary.name }))
      show.addEventListener('click', () => pick(summary.name))
      return el(
        'tr',
        { 'data-session': summary.name, ...(summary.name === picked ? { class: 'picked' } : {}) },
        el('td', {}, show),
        el('td', { text: originText(summary) }),
        el('td', { text: String(summary.pets.count) }),
        el('td', { text: String(summary.pets.nextId) }),
        el('td', { text: String(summary.requests) }),
        el('td', { text: summary.now }),
        // The default session is never dropped, so it keeps no last use.
        el('td', { text: summary.lastUsed ?? '—' }),
        // Masked, as the request log shows them (D35, D46).
        el('td', {
          text: summary.keys.length === 0 ? '—' : summary.keys.map((key) => `${key.masked} (${key.plan})`).join(', '),
        }),
      )
    }),
  )
  // The options are rebuilt only when the names change, so an open picker is not closed under the user.
  const names = sessions.map((summary) => summary.name)
  const shown = [...picker.options].map((option) => option.value)
  if (names.join('\n') !== shown.join('\n'))
    picker.replaceChildren(...names.map((name) => el('option', { value: name, text: name })))
  picker.value = picked
}
