import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AdminGate } from '../../core/admin/create-admin-gate.js'
import { parseBearer } from '../../core/auth/create-key-ring.js'
import { HttpError } from '../../core/errors/http-error.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { SessionsNotServed } from '../../core/sessions/session-errors.js'
import { DEFAULT_SESSION, isSessionName, SESSION_HEADER, sessionNameRule } from '../../core/sessions/session-name.js'
import type { RequestLog, RequestLogEntry } from '../../core/request-log/create-request-log.js'
import { JSON_CONTENT_TYPE } from '../../core/http/to-response.js'
import { type EventWriter, openEventStream, sendError } from './send-page.js'

// A comment line this often keeps proxies and the browser from closing an idle stream.
const HEARTBEAT_MS = 15_000
// A reader this far behind is cut off rather than buffered for without end; the dashboard reconnects.
const MAX_BUFFERED_BYTES = 1024 * 1024

/** Where the stream's entries come from: the sandbox's request log (`sandbox.onRequest`). */
export interface RequestEntrySource {
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
  /** A named session's entries (`sandbox.session(name)`, D34); absent where there are no sessions (the proxy). */
  session?(name: string): { onRequest(listener: (entry: RequestLogEntry) => void): () => void }
}

/** The admin paths' gate, and what the event stream needs to use it as the admin API does. */
export interface EventStreamAdmin {
  /** The process's one admin gate (create-admin-gate.ts), shared with the admin API. */
  gate: AdminGate
  /** Where the gate's refusals are listed. */
  requestLog: Pick<RequestLog, 'record'>
  /** Who the client is (create-client-address.ts, `--trust-proxy`). */
  clientAddress: (incoming: IncomingMessage) => string
  /** The sandbox clock, which dates the log's entries. */
  now: () => number
}

/**
 * `GET /__sandbox/events`: the request log as server-sent events (`event: request`, the entry as
 * JSON, key masked), pushed as each request is answered. It is behind the admin gate like every
 * admin path (the same limit on wrong tokens, each refusal listed in the request log); the token
 * goes in `Authorization`, so the dashboard reads it with fetch rather than EventSource, which
 * cannot send one, and the token never goes into a URL.
 */
export function createEventStream(requests: RequestEntrySource, { gate, requestLog, clientAddress, now }: EventStreamAdmin) {
  const open = new Set<EventWriter>()
  const refuse = (incoming: IncomingMessage, outgoing: ServerResponse, refusal: HttpError, time: number, started: number) => {
    sendError(incoming, outgoing, refusal)
    const durationMs = performance.now() - started
    const requestHeaders = pairs(incoming.rawHeaders)
    const responseHeaders: Array<[string, string]> = [['content-type', JSON_CONTENT_TYPE], ...Object.entries(refusal.headers)]
    const target = incoming.url ?? '/'
    requestLog.record({ time, method: incoming.method ?? 'GET', target, status: refusal.status, durationMs, requestHeaders, responseHeaders })
  }
  return {
    open(incoming: IncomingMessage, outgoing: ServerResponse): void {
      const started = performance.now()
      const time = now()
      let source: Pick<RequestEntrySource, 'onRequest'>
      try {
        gate.admit(parseBearer(incoming.headers.authorization ?? null), clientAddress(incoming))
        source = sessionSource(requests, incoming)
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        refuse(incoming, outgoing, error, time, started)
        return
      }
      const events = openEventStream(outgoing, MAX_BUFFERED_BYTES)
      events.write(': petstore-sandbox request log\n\n')
      if (incoming.method === 'HEAD') {
        events.end()
        return
      }
      open.add(events)
      const unsubscribe = source.onRequest((entry) => events.write(`event: request\ndata: ${JSON.stringify(entry)}\n\n`))
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

/**
 * The entries of the session the stream names: `X-Sandbox-Session`, or `?session=` for an
 * `EventSource`, which cannot send headers (D34); the default session's without either.
 */
function sessionSource(requests: RequestEntrySource, incoming: IncomingMessage): Pick<RequestEntrySource, 'onRequest'> {
  const header = incoming.headers[SESSION_HEADER]
  const fromHeader = Array.isArray(header) ? header.join(', ') : header
  const fromQuery = new URLSearchParams((incoming.url ?? '').split('?')[1] ?? '').get('session') ?? undefined
  for (const [name, where] of [
    [fromHeader, 'X-Sandbox-Session'],
    [fromQuery, 'session'],
  ] as const) {
    if (name !== undefined && !isSessionName(name)) throw new HttpError(400, ErrorCode.invalidRequest, sessionNameRule(where))
  }
  if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) {
    throw new HttpError(400, ErrorCode.invalidRequest, 'X-Sandbox-Session and ?session= name different sessions; name one')
  }
  const name = fromHeader ?? fromQuery
  if (name === undefined || name === DEFAULT_SESSION) return requests
  if (requests.session === undefined) throw new HttpError(404, ErrorCode.notFound, 'this server keeps no sessions: its stream is of every request')
  try {
    return requests.session(name)
  } catch (error) {
    if (error instanceof SessionsNotServed) throw new HttpError(501, ErrorCode.notImplemented, error.message)
    throw error
  }
}

function pairs(raw: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!])
  return out
}
