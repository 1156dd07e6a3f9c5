import type { IncomingMessage, ServerResponse } from 'node:http'
import { constantTimeEqual } from '../../core/auth/constant-time-equal.js'
import { parseBearer } from '../../core/auth/parse-bearer.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import type { RequestLogEntry } from '../../core/request-log/create-request-log.js'
import { PAGE_HEADERS } from './page-headers.js'
import { sendError } from './send-page.js'

// A comment line this often keeps proxies and the browser from closing an idle stream.
const HEARTBEAT_MS = 15_000
// A reader this far behind is cut off rather than buffered for without end; the dashboard reconnects.
const MAX_BUFFERED_BYTES = 1024 * 1024

/** Where the stream's entries come from: the sandbox (`sandbox.onRequest`), or the proxy's own log. */
export interface RequestEntrySource {
  onRequest(listener: (entry: RequestLogEntry) => void): () => void
}

/**
 * `GET /__sandbox/events`: the request log as server-sent events (`event: request`, the entry as
 * JSON, key masked), pushed as each request is answered. It needs the admin token in
 * `Authorization`, so the dashboard reads it with fetch rather than EventSource, which cannot send
 * one; the token never goes into a URL.
 */
export function createEventStream(requests: RequestEntrySource, token: string) {
  const open = new Set<ServerResponse>()
  return {
    open(incoming: IncomingMessage, outgoing: ServerResponse): void {
      const presented = parseBearer(incoming.headers.authorization ?? null)
      if (presented === undefined || !constantTimeEqual(presented, token)) {
        sendError(
          incoming,
          outgoing,
          new HttpError(401, ErrorCode.unauthorized, 'The event stream needs Authorization: Bearer <admin token>', {
            'www-authenticate': 'Bearer realm="petstore-sandbox admin"',
          }),
        )
        return
      }
      outgoing.writeHead(200, { ...PAGE_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' })
      outgoing.write(': petstore-sandbox request log\n\n')
      if (incoming.method === 'HEAD') {
        outgoing.end()
        return
      }
      open.add(outgoing)
      const unsubscribe = requests.onRequest((entry) => {
        if (outgoing.writableLength > MAX_BUFFERED_BYTES) outgoing.destroy()
        else outgoing.write(`event: request\ndata: ${JSON.stringify(entry)}\n\n`)
      })
      const heartbeat = setInterval(() => outgoing.write(': heartbeat\n\n'), HEARTBEAT_MS)
      heartbeat.unref()
      outgoing.once('close', () => {
        unsubscribe()
        clearInterval(heartbeat)
        open.delete(outgoing)
      })
    },
    close(): void {
      for (const outgoing of open) outgoing.end()
    },
  }
}
