import { createMasker, type Masker, sameSecrets, type Secrets } from '../auth/create-masker.js'
import { maskSecret } from '../auth/mask-key.js'
import { createKeyedRing } from './create-keyed-ring.js'
import { createRingBuffer } from './create-ring-buffer.js'

/** Shows one answered request, keys masked. */
export interface RequestLogEntry {
  /** Names the entry for `GET /__sandbox/requests.har?id=`. */
  id?: string
  time: string
  method: string
  path: string
  /** Is 0 for an injected dropped connection. */
  status: number
  durationMs: number
  /** Masks the key (`sand…#1a2b`, `-`, `admin`, `refused:…#1a2b`, D35). */
  key: string
  fault?: string
  scenario?: string
  forced?: number
  source?: 'upstream' | 'sandbox'
  session?: string
  requestHeaders?: LoggedHeader[]
  responseHeaders?: LoggedHeader[]
}

export interface LoggedHeader {
  name: string
  value: string
}

// Shows the admin token here as `admin`.
const ADMIN_PATH = /^\/__sandbox(?:[/?]|$)/

/** Holds plain facts: a closure would keep a body alive (BENCHMARKS.md). */
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
  /** Masks a presented key the secrets lack (the upstream's). */
  presented?: string | undefined
}

/** Builds an answer's entry, masked by `inForce`. */
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

/** Holds what a HAR needs beside the entry, for the last `EXCHANGES_KEPT`. */
export interface ExchangeBodies {
  origin: string
  /** Absent when none was read, or over `BODY_LIMIT`. */
  requestBody?: string | undefined
  responseBody?: string | undefined
  /** Gives the length of a body left out. */
  omitted?: { request?: number; response?: number }
}

export interface KeptExchange {
  entry: RequestLogEntry
  bodies?: ExchangeBodies | undefined
}

/** Selects the last `limit` entries that `match` (D36). */
export interface LogSelection {
  limit?: number | undefined
  match?: ((entry: RequestLogEntry) => boolean) | undefined
}

/** Picks the last `limit` that `match`, making only those it reads. */
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

/** Bounds a kept body in UTF-16 units; a HAR gives a longer one's size. */
export const BODY_LIMIT = 64 * 1024

export const EXCHANGES_KEPT = 1000

/** Shows no part of the admin token; a refusal, a fingerprint (D35). */
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
  /** Names who answered when the writer names nobody. */
  source?: 'sandbox'
}

/** Selects one session's entries (D34). */
export interface InSession {
  session: string | undefined
}

/** Creates a process's request log, masked only when read (D31, D35). */
export function createRequestLog(
  capacity: number,
  secrets: () => Secrets = () => ({ keys: [] }),
  { source }: RequestLogOptions = {},
) {
  const listeners = new Set<(entry: RequestLogEntry) => void>()
  const watchers = new Set<(entry: RequestLogEntry) => void>()
  // Keyed by session: a session's entries are counted and forgotten at once.
  const entries = createKeyedRing<Kept, string | undefined>(capacity, (kept) => kept.answer.session)
  let sink: ((entry: RequestLogEntry) => void) | undefined
  let masker: Masker | undefined
  const maskerNow = (): Masker => {
    const inForce = secrets()
    if (masker === undefined || !sameSecrets(masker.secrets, inForce)) masker = createMasker(inForce)
    return masker
  }
  // Prefixes ids so another process's are never found here.
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
    /** Returns the last `limit` listed entries. */
    last(limit = capacity, of?: InSession): RequestLogEntry[] {
      return showAll(kept(limit, of))
    },
    count: (of?: InSession): number => (of === undefined ? entries.count() : entries.count(of.session)),
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
    /** Hands each listed entry to the shared log too. */
    forward(to: (entry: RequestLogEntry) => void): void {
      sink = to
    },
    subscribe(listener: (entry: RequestLogEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** Calls `watcher` with every answer, listed or not. */
    watch(watcher: (entry: RequestLogEntry) => void): () => void {
      watchers.add(watcher)
      return () => watchers.delete(watcher)
    },
    clear(of?: InSession): void {
      if (of === undefined) {
        entries.clear()
        detailed.clear()
        return
      }
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
