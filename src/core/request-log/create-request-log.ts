import { createMasker, type Masker, sameSecrets, type Secrets } from '../auth/create-masker.js'
import { maskSecret } from '../auth/mask-key.js'
import { createKeyedRing } from './create-keyed-ring.js'
import { createRingBuffer } from './create-ring-buffer.js'

/** Shows one answered request, keys masked, the path percent-encoded. */
export interface RequestLogEntry {
  /** Names the entry for `GET /__sandbox/requests.har?id=`. */
  id?: string
  /** Dates the arrival by the sandbox clock (ISO 8601). */
  time: string
  method: string
  path: string
  /** Is 0 for an injected dropped connection. */
  status: number
  /** Times arrival to answer, in ms (one decimal). */
  durationMs: number
  /** Masks the key (`sand…#1a2b`, `-`, `admin`, `refused:…#1a2b`, D35). */
  key: string
  /** Repeats the `X-Sandbox-Fault` mark. */
  fault?: string
  /** Names the key's scenario (D29). */
  scenario?: string
  /** Gives the status `Prefer: code=` forced (D30). */
  forced?: number
  /** Says who answered under `proxy` (`X-Sandbox-Source`). */
  source?: 'upstream' | 'sandbox'
  /** Names the session; absent for the default one (D34). */
  session?: string
  requestHeaders?: LoggedHeader[]
  responseHeaders?: LoggedHeader[]
}

export interface LoggedHeader {
  name: string
  value: string
}

// Shows the admin token as `admin` here, never a part of it.
const ADMIN_PATH = /^\/__sandbox(?:[/?]|$)/

/** Holds plain facts, never a closure that would keep a body alive (BENCHMARKS.md). */
export interface Answered {
  time: number
  method: string
  target: string
  status: number
  durationMs: number
  requestHeaders: Iterable<[string, string]>
  responseHeaders?: Iterable<[string, string]> | undefined
  fault?: string | undefined
  scenario?: string | undefined
  forced?: number | undefined
  source?: 'upstream' | 'sandbox' | undefined
  session?: string | undefined
  /** Masks a presented key the secrets lack (the upstream's, under `proxy`). */
  presented?: string | undefined
}

/** Builds an answer's entry, masked by the secrets in force. */
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

/** Holds what a HAR needs beside the entry, kept for the last `EXCHANGES_KEPT` entries. */
export interface ExchangeBodies {
  origin: string
  /** Absent when none was read, or over `BODY_LIMIT`. */
  requestBody?: string | undefined
  responseBody?: string | undefined
  /** Gives the length of a body left out for its size. */
  omitted?: { request?: number; response?: number }
}

export interface KeptExchange {
  entry: RequestLogEntry
  bodies?: ExchangeBodies | undefined
}

/** Selects the last `limit` entries that `match`, every filter one predicate (D36). */
export interface LogSelection {
  limit?: number | undefined
  match?: ((entry: RequestLogEntry) => boolean) | undefined
}

/** Picks the last `limit` of `items` that `match`, making only the items it looks at. */
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

export const EXCHANGES_KEPT = 1000

/** Shows no part of the admin token; a refusal, a fingerprint of what was presented (D35). */
function adminKey(status: number, authorization: string | undefined): string {
  if (status !== 401 && status !== 429) return 'admin'
  const presented = authorization?.trim().split(/\s+/).pop()
  return presented === undefined || presented === '' ? 'refused:-' : `refused:${maskSecret(presented)}`
}

interface Kept {
  answer: Answered
  id: string
  bodies?: ExchangeBodies | undefined
}

/** Says who answered under `proxy`. */
export const SOURCE_HEADER = 'X-Sandbox-Source'

export interface RequestLogOptions {
  /** Names who answered when the writer names nobody (under `proxy`). */
  source?: 'sandbox'
}

/** Selects one session's entries; undefined is the default session's (D34). */
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
  // Keyed by session, so a session's entries are counted and forgotten at once.
  const entries = createKeyedRing<Kept, string | undefined>(capacity, (kept) => kept.answer.session)
  let sink: ((entry: RequestLogEntry) => void) | undefined
  // Remade only when the secrets change: a shared log describes every answer.
  let masker: Masker | undefined
  const maskerNow = (): Masker => {
    const inForce = secrets()
    if (masker === undefined || !sameSecrets(masker.secrets, inForce)) masker = createMasker(inForce)
    return masker
  }
  // Prefixes ids so another process's id is never found here.
  const tag = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')
  let sequence = 0
  const detailed = createRingBuffer<Kept>(Math.min(capacity, EXCHANGES_KEPT))

  const publish = (entry: RequestLogEntry, listed = true): void => {
    for (const watcher of watchers) watcher(entry)
    if (listed) for (const listener of listeners) listener(entry)
  }
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
      // Built only when someone watches: recording stays cheap.
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
    /** Returns the last `limit` listed entries, oldest first. */
    last(limit = capacity, of?: InSession): RequestLogEntry[] {
      return showAll(kept(limit, of))
    },
    count: (of?: InSession): number => (of === undefined ? entries.count() : entries.count(of.session)),
    /** Selects entries with their bodies while kept. */
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
    exchange(id: string, of?: InSession): KeptExchange | undefined {
      const matches = (candidate: Kept) => candidate.id === id
      const found = of === undefined ? entries.find(matches) : entries.find(matches, of.session)
      return found === undefined ? undefined : withBodies(found)
    },
    /** Hands each listed entry to `to` too (the shared log). */
    forward(to: (entry: RequestLogEntry) => void): void {
      sink = to
    },
    /** Calls `listener` with each listed entry. */
    subscribe(listener: (entry: RequestLogEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** Calls `watcher` with every answer, listed or not (stdout). */
    watch(watcher: (entry: RequestLogEntry) => void): () => void {
      watchers.add(watcher)
      return () => watchers.delete(watcher)
    },
    /** Forgets the entries of `of`, or every entry. */
    clear(of?: InSession): void {
      if (of === undefined) {
        entries.clear()
        detailed.clear()
        return
      }
      // Costs the session's entries only.
      const removed = entries.remove(of.session)
      if (removed.some((one) => one.bodies !== undefined)) detailed.remove((one) => one.answer.session === of.session)
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>

function capBodies(bodies: ExchangeBodies): ExchangeBodies {
  const { requestBody, responseBody } = bodies
  // Nearly all are under the limit: no copy.
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
