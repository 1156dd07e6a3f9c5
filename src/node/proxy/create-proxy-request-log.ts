import type { RequestLogEntry } from '../../core/request-log/create-request-log.js'
import { createRingBuffer } from '../../core/request-log/create-ring-buffer.js'

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
  const entries = createRingBuffer<ProxyRequestEntry>(capacity)

  return {
    capacity,
    record(entry: ProxyRequestEntry): void {
      for (const listener of listeners) listener(entry)
      entries.push(entry)
    },
    /** The last `limit` entries (default all kept), oldest first, as the admin API lists them. */
    last: entries.last,
    /** Calls `listener` with each entry as it is recorded; returns the unsubscribe (as `sandbox.onRequest`). */
    onRequest(listener: (entry: ProxyRequestEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear: entries.clear,
  }
}

export type ProxyRequestLog = ReturnType<typeof createProxyRequestLog>
