import { maskAuthorization, maskUrl } from '../keys/mask-key.js'
import { redactKeys } from '../keys/redact-keys.js'

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
}

/**
 * The last `capacity` exchanges, oldest first, in a ring buffer: memory stays bounded however
 * long a shared sandbox runs. Keys are masked as they enter (the Authorization key, and any
 * configured key a client put in the URL), so the buffer never holds one.
 */
export function createRequestLog(capacity: number, keys: readonly string[] = []) {
  const entries: Array<RequestLogEntry | undefined> = new Array<RequestLogEntry | undefined>(capacity)
  let next = 0
  let size = 0

  return {
    capacity,
    record(entry: Omit<RequestLogEntry, 'key' | 'path'> & { url: URL; authorization: string | null }): void {
      if (capacity === 0) return
      const { url, authorization, ...rest } = entry
      entries[next] = { ...rest, path: redactKeys(maskUrl(url.pathname + url.search), keys), key: maskAuthorization(authorization ?? undefined) }
      next = (next + 1) % capacity
      size = Math.min(size + 1, capacity)
    },
    /** The last `limit` entries (default all kept), oldest first. */
    last(limit = capacity): RequestLogEntry[] {
      const count = Math.min(Math.max(0, limit), size)
      const out: RequestLogEntry[] = []
      for (let i = count; i > 0; i--) out.push(entries[(next - i + capacity) % capacity]!)
      return out
    },
    clear(): void {
      entries.fill(undefined)
      next = 0
      size = 0
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>
