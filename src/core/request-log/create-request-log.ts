import { createMasker, type Masker, sameSecrets, type Secrets } from '../auth/create-masker.js'
import { maskSecret } from '../auth/mask-key.js'
import { createKeyedRing } from './create-keyed-ring.js'
import { createRingBuffer } from './create-ring-buffer.js'

/** One answered request as the request log shows it, whoever answered: keys masked, the path percent-encoded. */
export interface RequestLogEntry {
  /** Names the entry for `GET /__sandbox/requests.har?id=` on the process that answered; absent when not listed. */
  id?: string
  /** When the request arrived, ISO 8601, by the sandbox clock. */
  time: string
  method: string
  /** Path and query as sent, credentials masked. */
  path: string
  /** The HTTP status, or 0 for an injected dropped connection. */
  status: number
  /** From arrival to the answer handed over, in ms (one decimal). */
  durationMs: number
  /** The masked key (`sand…#1a2b`) or `-`; on admin paths `admin`, or `refused:…#1a2b` for a refusal (D35). */
  key: string
  /** The `X-Sandbox-Fault` mark (`latency=120ms, error=503`, `drop`). */
  fault?: string
  /** The key's scenario that shaped the answer (D29). */
  scenario?: string
  /** The status a `Prefer: code=<status>` forced (D30). */
  forced?: number
  /** Who answered under `petstore-sandbox proxy` (`X-Sandbox-Source`); absent under `start`. */
  source?: 'upstream' | 'sandbox'
  /** The session the request named (D34); absent for the default session. */
  session?: string
  requestHeaders?: LoggedHeader[]
  /** Absent for a dropped connection. */
  responseHeaders?: LoggedHeader[]
}

/** A header of a logged request or answer, as HAR names it. */
export interface LoggedHeader {
  name: string
  value: string
}

// Shows the admin token as `admin` on these paths, never a part of it.
const ADMIN_PATH = /^\/__sandbox(?:[/?]|$)/

/** The plain facts a writer hands the log, never a closure that would keep a body alive (BENCHMARKS.md). */
export interface Answered {
  /** Epoch ms, by the sandbox clock. */
  time: number
  method: string
  /** The request target as received, percent-encoded. */
  target: string
  status: number
  durationMs: number
  requestHeaders: Iterable<[string, string]>
  responseHeaders?: Iterable<[string, string]> | undefined
  fault?: string | undefined
  scenario?: string | undefined
  forced?: number | undefined
  source?: 'upstream' | 'sandbox' | undefined
  /** The named session (D34); undefined for the default session. */
  session?: string | undefined
  /** Masks a presented key the secrets in force may not hold (the upstream's, under `proxy`). */
  presented?: string | undefined
}

/** Builds an answer's entry, masked by the secrets in force when it is read. */
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

/** The origin and raw bodies a HAR needs besides the entry, kept for the last `EXCHANGES_KEPT` entries. */
export interface ExchangeBodies {
  /** The origin the request was sent to (`http://127.0.0.1:4010`). */
  origin: string
  /** Absent when none was read, or over `BODY_LIMIT`. */
  requestBody?: string | undefined
  /** Absent without a body, or over `BODY_LIMIT`. */
  responseBody?: string | undefined
  /** The length of a body left out for its size. */
  omitted?: { request?: number; response?: number }
}

/** A listed entry with its bodies while they are kept: what a HAR is made of. */
export interface KeptExchange {
  entry: RequestLogEntry
  bodies?: ExchangeBodies | undefined
}

/** What an export reads: the last `limit` entries that `match`, oldest first, every filter one predicate (D36). */
export interface LogSelection {
  limit?: number | undefined
  match?: ((entry: RequestLogEntry) => boolean) | undefined
}

/** Picks the last `limit` of `items` that `match`, oldest first, making only the items it looks at. */
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

/** Bounds a kept body, in UTF-16 units: a HAR says only the size of a longer one. */
export const BODY_LIMIT = 64 * 1024

/** Bounds how many of the last entries keep their bodies. */
export const EXCHANGES_KEPT = 1000

/** Shows no part of the admin token; a refusal shows a fingerprint of what was presented (D35). */
function adminKey(status: number, authorization: string | undefined): string {
  if (status !== 401 && status !== 429) return 'admin'
  const presented = authorization?.trim().split(/\s+/).pop()
  return presented === undefined || presented === '' ? 'refused:-' : `refused:${maskSecret(presented)}`
}

/** A listed answer as the log keeps it. */
interface Kept {
  answer: Answered
  id: string
  bodies?: ExchangeBodies | undefined
}

/** Says who answered under `petstore-sandbox proxy`: `upstream` or `sandbox`. */
export const SOURCE_HEADER = 'X-Sandbox-Source'

export interface RequestLogOptions {
  /** Names who gave the answers whose writer names nobody: `sandbox` under `proxy`, absent under `start`. */
  source?: 'sandbox'
}

/** Selects one session's entries (D34); undefined is the default session's, with the answers of none. */
export interface InSession {
  session: string | undefined
}

/** Creates a process's request log: a ring of the last `capacity` answers, masked only when read (D31, D35). */
export function createRequestLog(
  capacity: number,
  secrets: () => Secrets = () => ({ keys: [] }),
  { source }: RequestLogOptions = {},
) {
  const listeners = new Set<(entry: RequestLogEntry) => void>()
  const watchers = new Set<(entry: RequestLogEntry) => void>()
  // Keys the ring by session: a listing counts each session's entries, a drop forgets them.
  const entries = createKeyedRing<Kept, string | undefined>(capacity, (kept) => kept.answer.session)
  let sink: ((entry: RequestLogEntry) => void) | undefined
  // Makes the masker again only when the secrets in force changed: a shared log describes every answer.
  let masker: Masker | undefined
  const maskerNow = (): Masker => {
    const inForce = secrets()
    if (masker === undefined || !sameSecrets(masker.secrets, inForce)) masker = createMasker(inForce)
    return masker
  }
  // Tags ids with this log's own prefix, so another process's id is never found here.
  const tag = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')
  let sequence = 0
  const detailed = createRingBuffer<Kept>(Math.min(capacity, EXCHANGES_KEPT))

  const publish = (entry: RequestLogEntry, listed = true): void => {
    for (const watcher of watchers) watcher(entry)
    if (listed) for (const listener of listeners) listener(entry)
  }
  // Masks with the secrets in force at each read.
  const show = (
    { answer, id }: { answer: Answered; id?: string | undefined },
    masker = maskerNow(),
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
    const masker = maskerNow()
    return kept.map((one) => show(one, masker))
  }
  const withBodies = (kept: Kept, masker?: Masker): KeptExchange => ({ entry: show(kept, masker), bodies: kept.bodies })

  const kept = (limit: number, of: InSession | undefined): Kept[] =>
    of === undefined ? entries.last(limit) : entries.lastOf(of.session, limit)

  return {
    capacity,
    record(
      answer: Answered,
      { listed = true, bodies }: { listed?: boolean; bodies?: ExchangeBodies | undefined } = {},
    ): void {
      const kept: Kept | undefined = listed ? { answer, id: `${tag}-${++sequence}` } : undefined
      // Builds the entry only when someone watches: recording stays cheap.
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
    /** Returns the last `limit` listed entries of one session or of all, oldest first. */
    last(limit = capacity, of?: InSession): RequestLogEntry[] {
      return showAll(kept(limit, of))
    },
    /** Counts the kept entries of one session, or of all. */
    count: (of?: InSession): number => (of === undefined ? entries.count() : entries.count(of.session)),
    /** Selects entries for an export, with their bodies while kept, oldest first. */
    select(selection: LogSelection = {}, of?: InSession): KeptExchange[] {
      const masker = maskerNow()
      const looked = kept(selection.match === undefined ? (selection.limit ?? capacity) : capacity, of)
      return pickLast(
        looked,
        (kept) => withBodies(kept, masker),
        (exchange) => exchange.entry,
        selection,
      )
    },
    /** Finds the entry with this id and its bodies, while kept. */
    exchange(id: string, of?: InSession): KeptExchange | undefined {
      const matches = (candidate: Kept) => candidate.id === id
      const found = of === undefined ? entries.find(matches) : entries.find(matches, of.session)
      return found === undefined ? undefined : withBodies(found)
    },
    /** Hands each listed entry to `to` as well: the shared log of several processes. */
    forward(to: (entry: RequestLogEntry) => void): void {
      sink = to
    },
    /** Calls `listener` with each listed entry as it is recorded; returns the unsubscribe. */
    subscribe(listener: (entry: RequestLogEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** Calls `watcher` with every answer, listed or not (the stdout log); returns the stop. */
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
      // Costs the session's entries only; at most the last EXCHANGES_KEPT have bodies.
      const removed = entries.remove(of.session)
      if (removed.some((one) => one.bodies !== undefined)) detailed.remove((one) => one.answer.session === of.session)
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>

function capBodies(bodies: ExchangeBodies): ExchangeBodies {
  const { requestBody, responseBody } = bodies
  // Keeps bodies under the limit, nearly all, without a copy.
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
