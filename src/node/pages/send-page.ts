import type { IncomingMessage, ServerResponse } from 'node:http'
import type { HttpError } from '../../core/errors/http-error.js'
import { errorReply } from '../../core/http/error-reply.js'
import { JSON_CONTENT_TYPE } from '../../core/http/to-response.js'
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

/** Refuses a page request: the Error body of `error` from the one error path, with its headers. */
export function sendError(incoming: IncomingMessage, outgoing: ServerResponse, error: HttpError): void {
  const reply = errorReply(error, new Headers())
  sendPage(incoming, outgoing, reply.status, JSON_CONTENT_TYPE, JSON.stringify(reply.body), Object.fromEntries(reply.headers))
}
