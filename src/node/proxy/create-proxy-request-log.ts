import type { RequestLogEntry } from '../../core/request-log/create-request-log.js'

/** One answer of the proxy as its dashboard and `GET /__sandbox/requests` show it: masked, with its source. */
export interface ProxyRequestEntry extends RequestLogEntry {
  /** Who answered: the upstream, or the sandbox (a fallback, or a refusal of the proxy's own). */
  source: 'upstream' | 'sandbox'
}

/**
 * The proxy's request log: the last `capacity` answers, oldest first, in a ring buffer, and a
 * feed of each answer as it is written. The proxy keeps its own because most of what it answers
 * never reaches the sandbox's log; entries arrive already masked (create-proxy-listener.ts).
 */
export function createProxyRequestLog(capacity: number) {
  const listeners = new Set<(entry: ProxyRequestEntry) => void>()
  const entries = new Array<ProxyRequestEntry | undefined>(capacity)
  let next = 0
  let size = 0

  return {
    capacity,
    record(entry: ProxyRequestEntry): void {
      for (const listener of listeners) listener(entry)
      if (capacity === 0) return
      entries[next] = entry
      next = (next + 1) % capacity
      size = Math.min(size + 1, capacity)
    },
    /** The last `limit` entries (default all kept), oldest first, as the admin API lists them. */
    last(limit = capacity): ProxyRequestEntry[] {
      const count = Math.min(Math.max(0, limit), size)
      const out: ProxyRequestEntry[] = []
      for (let i = count; i > 0; i--) out.push(entries[(next - i + capacity) % capacity]!)
      return out
    },
    /** Calls `listener` with each entry as it is recorded; returns the unsubscribe (as `sandbox.onRequest`). */
    onRequest(listener: (entry: ProxyRequestEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear(): void {
      entries.fill(undefined)
      next = 0
      size = 0
    },
  }
}

export type ProxyRequestLog = ReturnType<typeof createProxyRequestLog>
