import { createMasker, type Masker, type Secrets } from '../auth/create-masker.js'
import { maskSecret } from '../auth/mask-key.js'
import { createKeyedRing } from './create-keyed-ring.js'
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
  /** The status a `Prefer: code=<status>` forced (`Preference-Applied`, D30). */
  forced?: number
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
 * One answer as a writer hands it to the log: the facts its entry is built from, and nothing
 * else. Plain values and the two header lists only, never the request, the response or a closure
 * over them: a kept entry holds these for as long as the log keeps it, and a closure would hold
 * its whole scope (a request body's text among it, 1 MiB for a large body; BENCHMARKS.md).
 */
export interface Answered {
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
  forced?: number | undefined
  source?: 'upstream' | 'sandbox' | undefined
  /** The named session the answer was given in (D34); undefined for the default session. */
  session?: string | undefined
  /** A key the client presented that the secrets in force may not hold (under `proxy`, the upstream's): masked too. */
  presented?: string | undefined
}

/**
 * The log entry of one answer, masked by `inForce` (the secrets in force when it is read, keys
 * added at runtime included). The log calls it when someone reads the entry.
 */
export function describeAnswer(answer: Answered, inForce: Masker): RequestLogEntry {
  const masker =
    answer.presented === undefined
      ? inForce
      : createMasker({ ...inForce.secrets, keys: [...inForce.secrets.keys, answer.presented] })
  const admin = ADMIN_PATH.test(answer.target)
  let authorization: string | undefined
  const requestHeaders: LoggedHeader[] = []
  for (const [name, value] of answer.requestHeaders) {
    if (name.toLowerCase() === 'authorization') authorization = value
    requestHeaders.push({ name, value: masker.header(name, value, admin) })
  }
  const entry: RequestLogEntry = {
    time: new Date(answer.time).toISOString(),
    method: answer.method,
    path: masker.url(answer.target),
    status: answer.status,
    durationMs: Math.round(answer.durationMs * 10) / 10,
    key: admin ? adminKey(answer.status, authorization) : masker.credential(authorization),
  }
  if (answer.fault !== undefined) entry.fault = answer.fault
  if (answer.scenario !== undefined) entry.scenario = answer.scenario
  if (answer.forced !== undefined) entry.forced = answer.forced
  if (answer.source !== undefined) entry.source = answer.source
  if (answer.session !== undefined) entry.session = answer.session
  entry.requestHeaders = requestHeaders
  if (answer.responseHeaders !== undefined) {
    entry.responseHeaders = [...answer.responseHeaders].map(([name, value]) => ({
      name,
      value: masker.header(name, value, admin),
    }))
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

/**
 * What an export reads from a request log: the last `limit` entries (all kept by default) that
 * `match` (all by default), oldest first. Every filter of an export (a query parameter of
 * `/__sandbox/requests` and `requests.har`) is one predicate over entries, and `match` is all of
 * them together (D36).
 */
export interface LogSelection {
  limit?: number | undefined
  match?: ((entry: RequestLogEntry) => boolean) | undefined
}

/**
 * The last `limit` of `items` that `match`, oldest first. Each item is made by `make` only as it
 * is looked at, newest first, and the look stops at `limit`: a small export of a large log makes
 * only what it shows.
 */
export function pickLast<Item, Made>(
  items: readonly Item[],
  make: (item: Item) => Made,
  entryOf: (made: Made) => RequestLogEntry,
  { limit = Number.POSITIVE_INFINITY, match }: LogSelection,
): Made[] {
  const picked: Made[] = []
  for (let i = items.length - 1; i >= 0 && picked.length < limit; i--) {
    const made = make(items[i]!)
    if (match === undefined || match(entryOf(made))) picked.push(made)
  }
  return picked.reverse()
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

/** A listed answer as the log keeps it: its facts, its id, and its bodies while kept. */
interface Kept {
  answer: Answered
  id: string
  bodies?: ExchangeBodies | undefined
}

/** The header every answer carries under `petstore-sandbox proxy`: `upstream` or `sandbox`, whoever answered. */
export const SOURCE_HEADER = 'X-Sandbox-Source'

export interface RequestLogOptions {
  /**
   * Who gave the answers whose writer names nobody: under `proxy`, where every answer says who
   * gave it, `sandbox` (only the upstream's answers say `upstream`). Their entries show it, and
   * the `X-Sandbox-Source` header the server wrote on them. Absent under `start`.
   */
  source?: 'sandbox'
}

/**
 * Which entries a reader of the log wants: those of one session (`session` undefined: the default
 * session's, with the answers of no session such as the admin gate's refusals), D34. A reader
 * that gives none reads every entry.
 */
export interface InSession {
  session: string | undefined
}

/**
 * The request log of a process: the last `capacity` listed answers, oldest first, in a ring
 * buffer (memory stays bounded however long it runs), and the feeds of answers as they are
 * given. Writers hand over the {@link Answered} facts: recording runs on every request, building
 * and masking the entry only when someone reads, with the secrets in force then (`secrets`: keys added at runtime and the admin token included), so no key
 * ever leaves whole. An answer not `listed` (an admin call the gate let through) is not kept nor
 * listed; only the watchers of every answer (the stdout log) hear of it. A listed answer gets an
 * `id`, and the pipeline's answers hand over their bodies too, kept for the last ones (a HAR).
 */
export function createRequestLog(
  capacity: number,
  secrets: () => Secrets = () => ({ keys: [] }),
  { source }: RequestLogOptions = {},
) {
  const listeners = new Set<(entry: RequestLogEntry) => void>()
  const watchers = new Set<(entry: RequestLogEntry) => void>()
  // By session: a listing asks each session's count, and a drop forgets one session's entries.
  const entries = createKeyedRing<Kept, string | undefined>(capacity, (kept) => kept.answer.session)
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
  // One masker per read, with the secrets in force then.
  const show = (
    { answer, id }: { answer: Answered; id?: string | undefined },
    masker = createMasker(secrets()),
  ): RequestLogEntry => {
    const entry: RequestLogEntry = { ...(id === undefined ? {} : { id }), ...describeAnswer(answer, masker) }
    if (source === undefined || entry.source !== undefined) return entry
    entry.source = source
    const written = entry.responseHeaders
    if (written !== undefined && !written.some(({ name }) => name.toLowerCase() === SOURCE_HEADER.toLowerCase()))
      written.push({ name: SOURCE_HEADER, value: source })
    return entry
  }
  const showAll = (kept: readonly Kept[]): RequestLogEntry[] => {
    const masker = createMasker(secrets())
    return kept.map((one) => show(one, masker))
  }
  const withBodies = (kept: Kept, masker?: Masker): KeptExchange => ({ entry: show(kept, masker), bodies: kept.bodies })

  // The kept answers a reader may look at: the last `limit`, of one session when it says so.
  const kept = (limit: number, of: InSession | undefined): Kept[] =>
    of === undefined ? entries.last(limit) : entries.lastOf(of.session, limit)

  return {
    capacity,
    record(
      answer: Answered,
      { listed = true, bodies }: { listed?: boolean; bodies?: ExchangeBodies | undefined } = {},
    ): void {
      const kept: Kept | undefined = listed ? { answer, id: `${tag}-${++sequence}` } : undefined
      // Built only when someone watches: recording stays cheap on every request.
      if (watchers.size > 0 || (listed && (listeners.size > 0 || sink !== undefined))) {
        const entry = show(kept ?? { answer })
        if (listed) sink?.(entry)
        publish(entry, listed)
      }
      if (kept === undefined) return
      if (bodies !== undefined && capacity > 0) {
        kept.bodies = capBodies(bodies)
        const aged = detailed.push(kept)
        if (aged !== undefined) aged.bodies = undefined
      }
      if (capacity === 0) return
      entries.push(kept)
    },
    /** The last `limit` listed entries (default all kept) of one session (`of`) or of all, oldest first. */
    last(limit = capacity, of?: InSession): RequestLogEntry[] {
      return showAll(kept(limit, of))
    },
    /** How many listed entries of one session (`of`), or of all, are kept. */
    count: (of?: InSession): number => (of === undefined ? entries.count() : entries.count(of.session)),
    /** The listed entries `selection` picks (of one session, `of`, when given), with their bodies while kept, oldest first: for an export. */
    select(selection: LogSelection = {}, of?: InSession): KeptExchange[] {
      const masker = createMasker(secrets())
      // Without a filter, only the last `limit` need looking at.
      const looked = kept(selection.match === undefined ? (selection.limit ?? capacity) : capacity, of)
      return pickLast(
        looked,
        (kept) => withBodies(kept, masker),
        (exchange) => exchange.entry,
        selection,
      )
    },
    /** The entry with this id and its bodies, if this log still keeps it (and it is of session `of`, when given). */
    exchange(id: string, of?: InSession): KeptExchange | undefined {
      const matches = (candidate: Kept) => candidate.id === id
      const found = of === undefined ? entries.find(matches) : entries.find(matches, of.session)
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
      // Proportional to the session's entries; the exchanges with bodies are the last 1000 at most.
      const removed = entries.remove(of.session)
      if (removed.some((one) => one.bodies !== undefined)) detailed.remove((one) => one.answer.session === of.session)
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>

function capBodies(bodies: ExchangeBodies): ExchangeBodies {
  const { requestBody, responseBody } = bodies
  // Nearly every body is under the limit: kept as handed over, with no copy.
  if (
    (requestBody === undefined || requestBody.length <= BODY_LIMIT) &&
    (responseBody === undefined || responseBody.length <= BODY_LIMIT)
  )
    return bodies
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
