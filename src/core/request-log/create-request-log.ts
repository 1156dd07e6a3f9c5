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
  /** Names the entry, and its exchange for `GET /__sandbox/requests.har?id=`, on the process that answered it; absent for an answer not listed. */
  id?: string
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
  /** The scenario of the key that shaped the answer (`X-Sandbox-Scenario`, D29). */
  scenario?: string
  /** Under `petstore-sandbox proxy`, who answered (as `X-Sandbox-Source` says); absent under `start`. */
  source?: 'upstream' | 'sandbox'
  /** The session the request named (`X-Sandbox-Session`, D34); absent for the default session. */
  session?: string
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
    scenario?: string | undefined
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
  if (answer.scenario !== undefined) entry.scenario = answer.scenario
  if (answer.source !== undefined) entry.source = answer.source
  entry.requestHeaders = requestHeaders
  if (answer.responseHeaders !== undefined) {
    entry.responseHeaders = [...answer.responseHeaders].map(([name, value]) => ({ name, value: maskHeader(name, value, keys, admin) }))
  }
  return entry
}

/**
 * What a HAR needs of an exchange besides its log entry: where it was sent and the two bodies,
 * raw (masked when read, like the entry). Kept for the last `min(capacity, EXCHANGES_KEPT)`
 * listed entries only; older entries lose the bodies.
 */
export interface ExchangeBodies {
  /** The origin the request was sent to (`http://127.0.0.1:4010`): the entry's path is relative. */
  origin: string
  /** The request body as read; absent when none was read (a refusal before it, a GET) or over `BODY_LIMIT`. */
  requestBody?: string | undefined
  /** The response's JSON text (or, under the proxy, the upstream's text); absent for an answer without a body, or over `BODY_LIMIT`. */
  responseBody?: string | undefined
  /** The length of a body left out for its size: UTF-16 units of a text, bytes of a body the proxy did not decode. */
  omitted?: { request?: number; response?: number }
}

/** A listed entry with the bodies of its exchange while they are kept: what a HAR is made of. */
export interface KeptExchange {
  entry: RequestLogEntry
  bodies?: ExchangeBodies | undefined
}

/** Bodies longer than this (UTF-16 units) are left out of the kept exchanges: a HAR says only their size. */
export const BODY_LIMIT = 64 * 1024

/** Exchanges keep their bodies for the last this many requests; older entries keep the entry only. */
export const EXCHANGES_KEPT = 1000

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

/** A listed answer as the log keeps it: the deferred entry, its id, its session, and its bodies while kept. */
interface Kept {
  deferred: DeferredEntry
  id: string
  session?: string | undefined
  bodies?: ExchangeBodies | undefined
}

/**
 * Which entries a reader of the log wants: those of one session (`session` undefined: the default
 * session's, and the answers of no session, such as the admin gate's refusals). A reader that
 * gives none reads every entry.
 */
export interface InSession {
  session: string | undefined
}

/**
 * The request log of a process: the last `capacity` listed answers, oldest first, in a ring
 * buffer (memory stays bounded however long it runs), and the feeds of answers as they are
 * given. Writers hand over a {@link DeferredEntry}: recording runs on every request, masking only
 * when someone reads, with the keys in force then (`keys`, runtime ones included), so no key
 * ever leaves whole. An answer not `listed` (an admin call the gate let through) is not kept nor
 * listed; only the watchers of every answer (the stdout log) hear of it. A listed answer gets an
 * `id`, and the pipeline's answers hand over their bodies too, kept for the last ones (a HAR).
 */
export function createRequestLog(capacity: number, keys: () => readonly string[] = () => []) {
  const listeners = new Set<(entry: RequestLogEntry) => void>()
  const watchers = new Set<(entry: RequestLogEntry) => void>()
  const entries = createRingBuffer<Kept>(capacity)
  let sink: ((entry: RequestLogEntry) => void) | undefined
  // Ids are this log's own, so an id another process of a shared sandbox gave is never found here.
  const tag = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')
  let sequence = 0
  // The kept answers whose bodies are still kept: memory stays bounded with a large log.
  const detailed = createRingBuffer<Kept>(Math.min(capacity, EXCHANGES_KEPT))

  const publish = (entry: RequestLogEntry, listed = true): void => {
    for (const watcher of watchers) watcher(entry)
    if (listed) for (const listener of listeners) listener(entry)
  }
  const show = ({ deferred, id, session }: { deferred: DeferredEntry; id?: string | undefined; session?: string | undefined }): RequestLogEntry => ({
    ...(id === undefined ? {} : { id }),
    ...deferred(keys()),
    ...(session === undefined ? {} : { session }),
  })
  const inSession =
    ({ session }: InSession) =>
    (kept: Kept) =>
      kept.session === session
  const kept = (limit: number, of: InSession | undefined): Kept[] => (of === undefined ? entries.last(limit) : entries.lastMatching(limit, inSession(of)))
  const withBodies = (kept: Kept): KeptExchange => ({ entry: show(kept), bodies: kept.bodies })

  return {
    capacity,
    record(
      deferred: DeferredEntry,
      { listed = true, bodies, session }: { listed?: boolean; bodies?: ExchangeBodies | undefined; session?: string | undefined } = {},
    ): void {
      const kept: Kept | undefined = listed ? { deferred, id: `${tag}-${++sequence}`, ...(session === undefined ? {} : { session }) } : undefined
      // Built only when someone watches: recording stays cheap on every request.
      if (watchers.size > 0 || (listed && (listeners.size > 0 || sink !== undefined))) {
        const entry = show(kept ?? { deferred, session })
        if (listed) sink?.(entry)
        publish(entry, listed)
      }
      if (kept === undefined) return
      if (bodies !== undefined && capacity > 0) {
        kept.bodies = capBodies(bodies)
        const aged = detailed.push(kept)
        if (aged !== undefined) aged.bodies = undefined
      }
      entries.push(kept)
    },
    /** The last `limit` listed entries (default all kept) of one session (`of`) or of all, oldest first. */
    last(limit = capacity, of?: InSession): RequestLogEntry[] {
      return kept(limit, of).map(show)
    },
    /** How many listed entries of one session (`of`), or of all, are kept. */
    count: (of?: InSession): number => kept(capacity, of).length,
    /** The last `limit` listed entries with their bodies while kept (default all kept), of one session or all, oldest first: for a HAR. */
    exchanges: (limit = capacity, of?: InSession): KeptExchange[] => kept(limit, of).map(withBodies),
    /** The entry with this id and its bodies, if this log still keeps it (and it is of session `of`, when given). */
    exchange(id: string, of?: InSession): KeptExchange | undefined {
      const found = entries.last(capacity).find((candidate) => candidate.id === id && (of === undefined || candidate.session === of.session))
      return found === undefined ? undefined : withBodies(found)
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
    /** Forgets the entries of one session (`of`), or every entry. */
    clear(of?: InSession): void {
      if (of === undefined) {
        entries.clear()
        detailed.clear()
        return
      }
      const matches = inSession(of)
      entries.remove(matches)
      detailed.remove(matches)
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>

function capBodies(bodies: ExchangeBodies): ExchangeBodies {
  const { requestBody, responseBody } = bodies
  // Nearly every body is under the limit: kept as handed over, with no copy.
  if ((requestBody === undefined || requestBody.length <= BODY_LIMIT) && (responseBody === undefined || responseBody.length <= BODY_LIMIT)) return bodies
  const capped: ExchangeBodies = { ...bodies }
  if (requestBody !== undefined && requestBody.length > BODY_LIMIT) {
    capped.omitted = { ...capped.omitted, request: requestBody.length }
    delete capped.requestBody
  }
  if (responseBody !== undefined && responseBody.length > BODY_LIMIT) {
    capped.omitted = { ...capped.omitted, response: responseBody.length }
    delete capped.responseBody
  }
  return capped
}
