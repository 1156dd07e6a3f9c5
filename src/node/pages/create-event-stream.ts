import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AdminGate } from '../../core/admin/create-admin-gate.js'
import { parseBearer } from '../../core/auth/create-key-ring.js'
import { HttpError } from '../../core/errors/http-error.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { SessionsNotServed } from '../../core/sessions/session-errors.js'
import { requestedSession, DEFAULT_SESSION, sessionNameRefusal } from '../../core/sessions/session-name.js'
import type { RequestLogEntry } from '../../core/request-log/create-request-log.js'
import type { AnswerTail } from '../../core/pipeline/answer-tail.js'
import { type EventWriter, openEventStream, sendError } from './send-page.js'

// A comment line this often keeps proxies and the browser from closing an idle stream.
const HEARTBEAT_MS = 15_000
// Cuts off a reader this far behind rather than buffering without end; the dashboard reconnects.
const MAX_BUFFERED_BYTES = 1024 * 1024

export interface RequestEntrySource {
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
  /** A named session's entries (D34); absent where there are no sessions (the proxy). */
  session?(name: string): { onRequest(listener: (entry: RequestLogEntry) => void): () => void }
}

export interface EventStreamAdmin {
  gate: AdminGate
  clientAddress: (incoming: IncomingMessage) => string
}

/** Creates `GET /__sandbox/events`, the request log as server-sent events behind the admin gate (read with fetch). */
export function createEventStream(
  requests: RequestEntrySource,
  tail: AnswerTail,
  { gate, clientAddress }: EventStreamAdmin,
) {
  const open = new Set<EventWriter>()
  return {
    open(incoming: IncomingMessage, outgoing: ServerResponse): void {
      let source: Pick<RequestEntrySource, 'onRequest'>
      try {
        gate.admit(parseBearer(incoming.headers.authorization ?? null), clientAddress(incoming))
        source = sessionSource(requests, incoming)
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        // Listed in the request log by the tail, as the admin API's refusals are.
        sendError(tail, incoming, outgoing, error)
        return
      }
      const events = openEventStream(outgoing, MAX_BUFFERED_BYTES)
      events.write(': petstore-sandbox request log\n\n')
      if (incoming.method === 'HEAD') {
        events.end()
        return
      }
      open.add(events)
      const unsubscribe = source.onRequest((entry) =>
        events.write(`event: request\ndata: ${JSON.stringify(entry)}\n\n`),
      )
      const heartbeat = setInterval(() => events.write(': heartbeat\n\n'), HEARTBEAT_MS)
      heartbeat.unref()
      outgoing.once('close', () => {
        unsubscribe()
        clearInterval(heartbeat)
        open.delete(events)
      })
    },
    close(): void {
      for (const events of open) events.end()
    },
  }
}

/** Returns the entries of the session `X-Sandbox-Session`, baggage (D43) or `?session=` (D34) names. */
function sessionSource(requests: RequestEntrySource, incoming: IncomingMessage): Pick<RequestEntrySource, 'onRequest'> {
  const header = requestedSession((name) => {
    const value = incoming.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  })
  const inQuery = new URLSearchParams((incoming.url ?? '').split('?')[1] ?? '').getAll('session')
  // One name, as the exports' query is held to it (the admin document's `session`: a string).
  if (inQuery.length > 1) throw new HttpError(400, ErrorCode.invalidRequest, 'session must be a string')
  const fromQuery = inQuery[0]
  const refusal =
    (header === undefined ? undefined : sessionNameRefusal(header.name, header.where)) ??
    (fromQuery === undefined ? undefined : sessionNameRefusal(fromQuery, 'session'))
  if (refusal !== undefined) throw new HttpError(400, ErrorCode.invalidRequest, refusal)
  if (header !== undefined && fromQuery !== undefined && header.name !== fromQuery) {
    throw new HttpError(
      400,
      ErrorCode.invalidRequest,
      `${header.where} and ?session= name different sessions; name one`,
    )
  }
  const name = header?.name ?? fromQuery
  if (name === undefined || name === DEFAULT_SESSION) return requests
  if (requests.session === undefined)
    throw new HttpError(404, ErrorCode.notFound, 'this server keeps no sessions: its stream is of every request')
  try {
    return requests.session(name)
  } catch (error) {
    if (error instanceof SessionsNotServed) throw new HttpError(501, ErrorCode.notImplemented, error.message)
    throw error
  }
}
