import type { RequestLogEntry } from '../../../core/request-log/create-request-log.js'
import { drawChart, logRow, shown } from './dashboard-view.js'

// The log shows this many requests at most; older ones stay readable through the admin API.
export const LOG_ROWS = 200

type Counts = { ok: number; client: number; server: number }

/** Creates the dashboard's request log, newest first, filtered by status and key, with its chart by second. */
export function createRequestLogView(
  body: HTMLTableSectionElement,
  canvas: HTMLCanvasElement,
  status: HTMLSelectElement,
  key: HTMLSelectElement,
) {
  let entries: RequestLogEntry[] = []
  let perSecond = new Map<number, Counts>()

  const render = () =>
    body.replaceChildren(...entries.filter((entry) => shown(entry, status.value, key.value)).map(logRow))
  const chart = () => {
    const now = Math.floor(Date.now() / 1000)
    for (const second of perSecond.keys()) if (second < now - 60) perSecond.delete(second)
    const seconds: Counts[] = []
    for (let second = now - 59; second <= now; second++)
      seconds.push(perSecond.get(second) ?? { ok: 0, client: 0, server: 0 })
    drawChart(canvas, seconds)
  }
  status.addEventListener('change', render)
  key.addEventListener('change', render)

  return {
    render,
    chart,
    /** Shows the kept requests after those pushed while they were read (the stream opens first). */
    load(kept: RequestLogEntry[]): void {
      const listed = new Set(kept.map((entry) => entry.id))
      const pushed = entries.filter((entry) => entry.id === undefined || !listed.has(entry.id))
      entries = [...pushed, ...kept.slice(-LOG_ROWS).reverse()].slice(0, LOG_ROWS)
      render()
    },
    /** Shows a request the stream pushed, once. */
    add(entry: RequestLogEntry): void {
      if (entry.id !== undefined && entries.some((shownEntry) => shownEntry.id === entry.id)) return
      entries.unshift(entry)
      if (entries.length > LOG_ROWS) entries.length = LOG_ROWS
      const second = Math.floor(Date.now() / 1000)
      const counts = perSecond.get(second) ?? { ok: 0, client: 0, server: 0 }
      if (entry.status >= 200 && entry.status < 400) counts.ok++
      else if (entry.status >= 400 && entry.status < 500) counts.client++
      else counts.server++
      perSecond.set(second, counts)
      render()
      chart()
    },
    clear(): void {
      entries = []
      perSecond = new Map()
      render()
      chart()
    },
  }
}
