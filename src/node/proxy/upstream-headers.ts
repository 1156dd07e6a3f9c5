import { SOURCE_HEADER } from '../../core/request-log/create-request-log.js'

/** Lists the headers of one connection, not the message, which a proxy never forwards (RFC 9110 7.6.1). */
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

/** Returns the headers a proxy must not pass on: the hop-by-hop ones and those `Connection` names. */
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

/** Returns the upstream's header pairs less the connection's own, with the written length and the source. */
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
