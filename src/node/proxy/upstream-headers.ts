import { SOURCE_HEADER } from '../../core/request-log/create-request-log.js'

/** Headers that describe one connection, not the message (RFC 9110 7.6.1): a proxy never forwards them. */
const HOP_BY_HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/**
 * The headers of a message a proxy must not pass on, lower-cased: the hop-by-hop ones and every
 * header its `Connection` header names (RFC 9110 7.6.1), so a client or an upstream cannot make
 * the other side see a header meant for this connection only.
 *
 * @example
 * notForwarded('close, X-Debug-Token').has('x-debug-token') // true
 */
export function notForwarded(connection: string | readonly string[] | undefined): Set<string> {
  const names = new Set(HOP_BY_HOP_HEADERS)
  for (const value of typeof connection === 'string' ? [connection] : (connection ?? [])) {
    for (const token of value.split(',')) {
      const name = token.trim().toLowerCase()
      if (name !== '') names.add(name)
    }
  }
  return names
}

/**
 * The upstream's raw header pairs as the client gets them: unchanged, less the connection's own
 * headers (those `Connection` names too), with the length of the bytes actually written and where
 * the answer came from.
 */
export function upstreamHeaders(rawHeaders: string[], bodyLength: number, head: boolean): string[] {
  const connection: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === 'connection') connection.push(rawHeaders[i + 1]!)
  const skipped = notForwarded(connection)
  const written: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase()
    if (skipped.has(name) || name === SOURCE_HEADER.toLowerCase() || (name === 'content-length' && !head)) continue
    written.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  }
  if (!head) written.push('Content-Length', String(bodyLength))
  written.push(SOURCE_HEADER, 'upstream')
  return written
}
