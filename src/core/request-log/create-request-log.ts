import { maskAuthorization } from '../auth/mask-key.js'
import { redactUrl } from '../auth/redact-url.js'
import { createRingBuffer } from './create-ring-buffer.js'

/** One answered request as the admin API and `sandbox.requests` show it; the key is masked. */
export interface RequestLogEntry {
  /** Names the exchange for `GET /__sandbox/requests.har?id=`, on the process that answered it. */
  id?: string
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
  /** The scenario of the key that shaped the answer (`X-Sandbox-Scenario`, D29). */
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
  /** What was sent and answered, as references: copied, capped and masked only when read (HAR). */
  exchange?: Exchange
  /** Set by the log when the record is kept: its place in this log's sequence (the entry's `id` names it). */
  seq?: number
}

/** A kept record as a HAR reads it, with the id its request log entry shows. */
export type KeptExchange = RequestRecord & { id?: string | undefined }

/** The headers and bodies of one exchange, as the pipeline saw them. */
export interface Exchange {
  requestHeaders: Headers
  /** The request body as read; absent when none was read (a refusal before it, a GET) or over `BODY_LIMIT`. */
  requestBody?: string
  responseHeaders: Headers
  /** The response's JSON text; absent for an answer without a body, or over `BODY_LIMIT`. */
  responseBody?: string
  /** The length of a body left out for its size. */
  omitted?: { request?: number; response?: number }
}

/** Bodies longer than this (UTF-16 units) are left out of the kept exchanges: a HAR says only their size. */
export const BODY_LIMIT = 64 * 1024

/** Exchanges keep their headers and bodies for the last this many requests; older entries keep the summary only. */
export const EXCHANGES_KEPT = 1000

/**
 * The last `capacity` exchanges, oldest first, in a ring buffer: memory stays bounded however
 * long a shared sandbox runs. Entries are kept raw and masked when read (the Authorization key,
 * credential-like query parameters, and any configured key a client put in the URL): recording
 * runs on every request, reading only when someone asks, and no masked value ever leaves.
 */
export function createRequestLog(capacity: number, keys: () => readonly string[] = () => []) {
  const listeners = new Set<(entry: RequestLogEntry) => void>()
  const entries = createRingBuffer<RequestRecord>(capacity)
  // Ids are this log's own, so an id another process of a shared sandbox gave is never found here.
  const tag = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')
  let sequence = 0
  // The records whose exchange is still kept, oldest first: memory stays bounded with a large log.
  let detailed: RequestRecord[] = []
  const keep = (entry: RequestRecord): RequestRecord => {
    entry.seq = ++sequence
    if (entry.exchange !== undefined && capacity > 0) {
      capBodies(entry.exchange)
      detailed.push(entry)
      if (detailed.length > Math.min(capacity, EXCHANGES_KEPT)) delete detailed.shift()!.exchange
    }
    entries.push(entry)
    return entry
  }

  const publish = (entry: RequestLogEntry): void => {
    for (const listener of listeners) listener(entry)
  }
  const idOf = (seq: number | undefined) => (seq === undefined ? undefined : `${tag}-${seq}`)
  const shown = ({ time, url, authorization, exchange: _, seq, ...rest }: RequestRecord): RequestLogEntry => ({
    ...(seq === undefined ? {} : { id: idOf(seq) }),
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
      keep(entry)
      // Masked only when someone watches: recording stays cheap on every request.
      if (listeners.size > 0) publish(shown(entry))
    },
    /** Keeps a record without telling the watchers (a shared log tells them); returns it with its id. */
    keep,
    /** The last `limit` entries (default all kept), oldest first. */
    last(limit = capacity): RequestLogEntry[] {
      return entries.last(limit).map(shown)
    },
    /** The last `limit` records with their exchanges, raw (default all kept), oldest first: for a HAR, which masks them. */
    exchanges: (limit = capacity): KeptExchange[] => entries.last(limit).map((record) => ({ ...record, id: idOf(record.seq) })),
    /** The record of the exchange with this id, if this log still keeps it. */
    exchange(id: string): KeptExchange | undefined {
      const found = entries.last(capacity).find((record) => idOf(record.seq) === id)
      return found === undefined ? undefined : { ...found, id }
    },
    /** Tells the watchers of an entry recorded elsewhere (the shared log of several processes). */
    publish,
    /** Calls `listener` with each entry as it is recorded (masked, like `last`); returns the unsubscribe. */
    subscribe(listener: (entry: RequestLogEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear(): void {
      entries.clear()
      detailed = []
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>

function capBodies(exchange: Exchange): void {
  const { requestBody, responseBody } = exchange
  if (requestBody !== undefined && requestBody.length > BODY_LIMIT) {
    exchange.omitted = { ...exchange.omitted, request: requestBody.length }
    delete exchange.requestBody
  }
  if (responseBody !== undefined && responseBody.length > BODY_LIMIT) {
    exchange.omitted = { ...exchange.omitted, response: responseBody.length }
    delete exchange.responseBody
  }
}
