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
