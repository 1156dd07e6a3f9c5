import type { RequestLogEntry } from '../../../core/request-log/create-request-log.js'

// Builds the DOM through textContent and attributes, never markup, so client text stays text.

export function el(tag: string, props: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (name === 'text') element.textContent = value
    else element.setAttribute(name, value)
  }
  for (const child of children) element.append(child)
  return element
}

/** Builds a usage bar with its figures as text. */
export function meter(caption: string, label: string, used: number, limit: number): HTMLElement {
  const bar = el('progress', { max: String(limit), value: String(Math.min(used, limit)), 'aria-label': label })
  return el(
    'span',
    { class: 'meter' },
    el('span', { class: 'meter-caption', 'aria-hidden': 'true', text: caption }),
    bar,
    el('span', { class: 'meter-figures', text: `${used} / ${limit}` }),
  )
}

/** Says "in 42 s", "in 3 min" or "in 5 h" until a Unix time, by the sandbox clock. */
export function until(resetSeconds: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round(resetSeconds - nowMs / 1000))
  if (seconds < 120) return `in ${seconds} s`
  if (seconds < 7200) return `in ${Math.round(seconds / 60)} min`
  return `in ${Math.round(seconds / 3600)} h`
}

/** Builds a request log row; its source cell only under the proxy. */
export function logRow(entry: RequestLogEntry): HTMLElement {
  const status = entry.status === 0 ? 'dropped' : String(entry.status)
  const { source } = entry
  return el(
    'tr',
    {
      'data-status': String(entry.status),
      'data-key': entry.key,
      ...(source === undefined ? {} : { 'data-source': source }),
    },
    el('td', { text: entry.time.slice(11, 23) }),
    el('td', { class: `status-${String(entry.status)[0]}`, text: status }),
    ...(source === undefined ? [] : [el('td', { class: 'source', text: source })]),
    el('td', { text: entry.method }),
    el(
      'td',
      {},
      entry.id === undefined
        ? el('code', { text: entry.path })
        : el(
            'button',
            { type: 'button', class: 'link', 'data-exchange': entry.id, title: 'Show the exchange' },
            el('code', { text: entry.path }),
          ),
    ),
    el('td', { text: entry.key }),
    el('td', { text: String(entry.durationMs) }),
    el('td', {
      text: [
        entry.fault,
        entry.scenario && `scenario=${entry.scenario}`,
        entry.forced && `Prefer: code=${entry.forced}`,
      ]
        .filter(Boolean)
        .join(', '),
    }),
  )
}

export function shown(entry: RequestLogEntry, status: string, key: string): boolean {
  return statusShown(entry.status, status) && (key === '' || entry.key === key)
}

/** Tells whether a status passes: any (``), a class (`4`), one status (`429`), or dropped (`0`). */
export function statusShown(status: number, filter: string): boolean {
  return (
    filter === '' ||
    (filter.length === 3 ? String(status) === filter : filter === '0' ? status === 0 : String(status)[0] === filter)
  )
}

/** Draws requests per second by status class for the last 60 s. */
export function drawChart(
  canvas: HTMLCanvasElement,
  seconds: Array<{ ok: number; client: number; server: number }>,
): void {
  const context = canvas.getContext('2d')
  if (context === null) return
  const { width, height } = canvas
  context.clearRect(0, 0, width, height)
  const peak = Math.max(1, ...seconds.map((second) => second.ok + second.client + second.server))
  const step = width / seconds.length
  seconds.forEach((second, index) => {
    let y = height
    for (const [count, colour] of [
      [second.ok, '#1a7f37'],
      [second.client, '#9a6700'],
      [second.server, '#b42318'],
    ] as const) {
      const bar = (count / peak) * (height - 4)
      context.fillStyle = colour
      context.fillRect(index * step, y - bar, Math.max(1, step - 1), bar)
      y -= bar
    }
  })
  canvas.setAttribute('aria-label', `Requests per second by status class, last 60 seconds; peak ${peak} per second`)
}

/** Writes a HAR entry's request or response as HTTP text. */
export function exchangeText(
  first: string,
  headers: ReadonlyArray<{ name: string; value: string }>,
  body: { text?: string; comment?: string } | undefined,
): string {
  const lines = [first, ...headers.map(({ name, value }) => `${name}: ${value}`), '']
  if (body?.text !== undefined) lines.push(prettyJson(body.text))
  else if (body?.comment !== undefined) lines.push(`(${body.comment})`)
  return lines.join('\n')
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
