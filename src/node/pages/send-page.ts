import type { IncomingMessage, ServerResponse } from 'node:http'
import type { HttpError } from '../../core/errors/http-error.js'
import { JSON_CONTENT_TYPE } from '../../core/http/to-response.js'
import { type AnswerTail, refusedRequest } from '../../core/pipeline/answer-tail.js'
import { PAGE_HEADERS } from './page-headers.js'

/** Writes a page's answer with the pages' headers (no body for HEAD); `extra` may override caching. */
export function sendPage(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  outgoing.writeHead(status, {
    ...PAGE_HEADERS,
    'cache-control': 'no-cache',
    ...extra,
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
  })
  outgoing.end(incoming.method === 'HEAD' ? undefined : body)
}

/** Answers 204 with the pages' headers and no Content-Length, which a 204 must not have. */
export function sendNoContent(outgoing: ServerResponse, extra: Record<string, string> = {}): void {
  outgoing.writeHead(204, { ...PAGE_HEADERS, ...extra })
  outgoing.end()
}

/** Refuses a page request through the tail, which builds and logs its Error body. */
export function sendError(
  tail: AnswerTail,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  error: HttpError,
): void {
  const reply = tail.refuse(refusedRequest(incoming, tail.now()), error, new Headers())
  sendPage(
    incoming,
    outgoing,
    reply.status,
    JSON_CONTENT_TYPE,
    JSON.stringify(reply.body),
    Object.fromEntries(reply.headers),
  )
}

export interface EventWriter {
  /** Writes events or comments; cuts off a reader more than `maxBuffered` bytes behind. */
  write(text: string): void
  end(): void
}

/** Opens a stream of server-sent events with the pages' headers, never cached. */
export function openEventStream(outgoing: ServerResponse, maxBuffered: number): EventWriter {
  outgoing.writeHead(200, {
    ...PAGE_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
  })
  return {
    write(text) {
      if (outgoing.writableLength > maxBuffered) outgoing.destroy()
      else outgoing.write(text)
    },
    end: () => outgoing.end(),
  }
}
