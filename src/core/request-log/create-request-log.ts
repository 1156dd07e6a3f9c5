import { maskAuthorization, maskKey, maskSecret } from '../auth/mask-key.js'
import { redactKeys } from '../auth/redact-keys.js'
import { redactUrl } from '../auth/redact-url.js'
import { createRingBuffer } from './create-ring-buffer.js'

/**
 * One answered request: the one record of the request log, whoever answered it (the sandbox's
 * handlers, the admin API, the proxy or its upstream), as the stdout log prints it, the admin API
 * lists it, the dashboard streams it and the Redis log shares it. Keys are masked; the path stays
 * percent-encoded. It carries what a HAR 1.2 entry needs besides the bodies: method, URL, both
 * header lists, status, timing and who answered.
 */
export interface RequestLogEntry {
  /** When the request arrived, ISO 8601, by the sandbox clock. */
  time: string
  method: string
  /** Path and query as sent (percent-encoded), with credential-like query parameters and keys masked. */
  path: string
  /** The HTTP status, or 0 for an injected dropped connection. */
  status: number
  /** From the request's arrival to its answer being handed over, in ms (one decimal). */
  durationMs: number
  /**
   * The masked key (`sand…#1a2b`), `-` without an Authorization header. On the admin paths `admin`
   * for the admin token, never a part of it, and `refused:…#1a2b` (a fingerprint of what was
   * presented) for a refusal of the admin gate.
   */
  key: string
  /** The `X-Sandbox-Fault` mark (`latency=120ms, error=503`, `drop`), when a fault was injected. */
  fault?: string
  /** Under `petstore-sandbox proxy`, who answered (as `X-Sandbox-Source` says); absent under `start`. */
  source?: 'upstream' | 'sandbox'
  /** The request's headers in order, credentials masked. */
  requestHeaders?: LoggedHeader[]
  /** The answer's headers in order, credentials masked; absent for a dropped connection. */
  responseHeaders?: LoggedHeader[]
}

/** A header of a logged request or answer, as HAR names it. */
export interface LoggedHeader {
  name: string
  value: string
}

/** Where the admin API lives; its entries show the admin token as `admin`, never a part of it. */
const ADMIN_PATH = /^\/__sandbox(?:[/?]|$)/

/**
 * The log entry of one answer, masked with `keys` (the keys in force when it is read, those added
 * at runtime included). Writers call it lazily through {@link RequestLog.record}.
 */
export function describeAnswer(
  answer: {
    /** Epoch ms, by the sandbox clock. */
    time: number
    method: string
    /** The request target as received: path and query, percent-encoded. */
    target: string
    status: number
    durationMs: number
    requestHeaders: Iterable<[string, string]>
    responseHeaders?: Iterable<[string, string]> | undefined
    fault?: string | undefined
    source?: 'upstream' | 'sandbox' | undefined
  },
  keys: readonly string[],
): RequestLogEntry {
  const admin = ADMIN_PATH.test(answer.target)
  let authorization: string | undefined
  const requestHeaders: LoggedHeader[] = []
  for (const [name, value] of answer.requestHeaders) {
    if (name.toLowerCase() === 'authorization') authorization = value
    requestHeaders.push({ name, value: maskHeader(name, value, keys, admin) })
  }
  const entry: RequestLogEntry = {
    time: new Date(answer.time).toISOString(),
    method: answer.method,
    path: redactUrl(answer.target, keys),
    status: answer.status,
    durationMs: Math.round(answer.durationMs * 10) / 10,
    key: admin ? adminKey(answer.status, authorization) : maskAuthorization(authorization),
  }
  if (answer.fault !== undefined) entry.fault = answer.fault
  if (answer.source !== undefined) entry.source = answer.source
  entry.requestHeaders = requestHeaders
  if (answer.responseHeaders !== undefined) {
    entry.responseHeaders = [...answer.responseHeaders].map(([name, value]) => ({ name, value: maskHeader(name, value, keys, admin) }))
  }
  return entry
}

/**
 * Not even a prefix of the admin token: it opens more than any key. A refusal shows the
 * fingerprint of what was presented, so repeated guesses from one client can be told apart.
 */
function adminKey(status: number, authorization: string | undefined): string {
  if (status !== 401 && status !== 429) return 'admin'
  const presented = authorization?.trim().split(/\s+/).pop()
  return presented === undefined || presented === '' ? 'refused:-' : `refused:${maskSecret(presented)}`
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'])

function maskHeader(name: string, value: string, keys: readonly string[], admin: boolean): string {
  if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) return redactKeys(value, keys)
  const [scheme, credential] = value.trim().split(/\s+/)
  if (credential === undefined) return maskSecret(value)
  return `${scheme} ${!admin && scheme?.toLowerCase() === 'bearer' ? maskKey(credential) : maskSecret(credential)}`
}

/** An answer as a writer hands it over: built (and masked) only when someone reads it. */
export type DeferredEntry = (keys: readonly string[]) => RequestLogEntry

/**
 * The request log of a process: the last `capacity` listed answers, oldest first, in a ring
 * buffer (memory stays bounded however long it runs), and the feeds of answers as they are
 * given. Writers hand over a {@link DeferredEntry}: recording runs on every request, masking only
 * when someone reads, with the keys in force then (`keys`, runtime ones included), so no key
 * ever leaves whole. An answer not `listed` (an admin call the gate let through) is not kept nor
 * listed; only the watchers of every answer (the stdout log) hear of it.
 */
export function createRequestLog(capacity: number, keys: () => readonly string[] = () => []) {
  const listeners = new Set<(entry: RequestLogEntry) => void>()
  const watchers = new Set<(entry: RequestLogEntry) => void>()
  const entries = createRingBuffer<DeferredEntry>(capacity)
  let sink: ((entry: RequestLogEntry) => void) | undefined

  const publish = (entry: RequestLogEntry, listed = true): void => {
    for (const watcher of watchers) watcher(entry)
    if (listed) for (const listener of listeners) listener(entry)
  }
  const show = (deferred: DeferredEntry): RequestLogEntry => deferred(keys())

  return {
    capacity,
    record(deferred: DeferredEntry, { listed = true }: { listed?: boolean } = {}): void {
      // Built only when someone watches: recording stays cheap on every request.
      if (watchers.size > 0 || (listed && (listeners.size > 0 || sink !== undefined))) {
        const entry = show(deferred)
        if (listed) sink?.(entry)
        publish(entry, listed)
      }
      if (listed) entries.push(deferred)
    },
    /** The last `limit` listed entries (default all kept), oldest first. */
    last(limit = capacity): RequestLogEntry[] {
      return entries.last(limit).map(show)
    },
    /** Hands each listed entry, built, to `to` as well: the shared log of several processes (core/state). */
    forward(to: (entry: RequestLogEntry) => void): void {
      sink = to
    },
    /** Calls `listener` with each listed entry as it is recorded (masked, like `last`); returns the unsubscribe. */
    subscribe(listener: (entry: RequestLogEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** Calls `watcher` with every answer this process gives, listed or not (the stdout log); returns the stop. */
    watch(watcher: (entry: RequestLogEntry) => void): () => void {
      watchers.add(watcher)
      return () => watchers.delete(watcher)
    },
    clear: entries.clear,
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>
