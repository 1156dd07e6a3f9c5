import { maskAuthorization } from '../auth/mask-key.js'
import { redactUrl } from '../auth/redact-url.js'
import { createRingBuffer } from './create-ring-buffer.js'

/** One answered request as the admin API and `sandbox.requests` show it; the key is masked. */
export interface RequestLogEntry {
  /** ISO 8601, by the sandbox clock. */
  time: string
  method: string
  /** Path and query, with credential-like query parameters masked. */
  path: string
  /** The HTTP status, or 0 for an injected dropped connection. */
  status: number
  durationMs: number
  /** The masked key (`sand…#1a2b`), `-` without an Authorization header. */
  key: string
  /** The `X-Sandbox-Fault` mark (`latency=120ms, error=503`, `drop`), when a fault was injected. */
  fault?: string
  /** The scenario of the key that shaped the answer (`X-Sandbox-Scenario`, D25). */
  scenario?: string
}

/** What the pipeline hands over per request: raw, so recording costs no masking or formatting. */
export interface RequestRecord {
  /** Epoch ms, by the sandbox clock. */
  time: number
  method: string
  url: URL
  status: number
  durationMs: number
  authorization: string | null
  fault?: string
  scenario?: string
}

/**
 * The last `capacity` exchanges, oldest first, in a ring buffer: memory stays bounded however
 * long a shared sandbox runs. Entries are kept raw and masked when read (the Authorization key,
 * credential-like query parameters, and any configured key a client put in the URL): recording
 * runs on every request, reading only when someone asks, and no masked value ever leaves.
 */
export function createRequestLog(capacity: number, keys: () => readonly string[] = () => []) {
  const listeners = new Set<(entry: RequestLogEntry) => void>()
  const entries = createRingBuffer<RequestRecord>(capacity)

  const publish = (entry: RequestLogEntry): void => {
    for (const listener of listeners) listener(entry)
  }
  const shown = ({ time, url, authorization, ...rest }: RequestRecord): RequestLogEntry => ({
    time: new Date(time).toISOString(),
    ...rest,
    path: redactUrl(url.pathname + url.search, keys()),
    key: maskAuthorization(authorization ?? undefined),
  })

  return {
    capacity,
    /** An entry as it is shown: masked and formatted. */
    show: shown,
    record(entry: RequestRecord): void {
      // Masked only when someone watches: recording stays cheap on every request.
      if (listeners.size > 0) publish(shown(entry))
      entries.push(entry)
    },
    /** The last `limit` entries (default all kept), oldest first. */
    last(limit = capacity): RequestLogEntry[] {
      return entries.last(limit).map(shown)
    },
    /** Tells the watchers of an entry recorded elsewhere (the shared log of several processes). */
    publish,
    /** Calls `listener` with each entry as it is recorded (masked, like `last`); returns the unsubscribe. */
    subscribe(listener: (entry: RequestLogEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear: entries.clear,
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>
