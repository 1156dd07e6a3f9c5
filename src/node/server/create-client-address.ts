import type { IncomingMessage } from 'node:http'
import parseForwarded from 'forwarded-parse'
import proxyaddr from 'proxy-addr'

/**
 * Who the client of a request is, for the per-address limit (D16): the socket's peer, unless the
 * peer is a trusted proxy (`--trust-proxy`), in which case the address its `Forwarded` (RFC 7239)
 * or, without one, `X-Forwarded-For` header names, walking back through trusted proxies only
 * (proxy-addr). From any other peer both headers are ignored, so a client cannot choose its own
 * bucket (docs/running-for-a-team.md#behind-a-proxy).
 *
 * @example
 * const clientAddress = createClientAddress(['10.0.0.0/8'])
 * clientAddress(incoming) // '203.0.113.7' when a proxy at 10.0.0.2 forwarded it
 */
export function createClientAddress(trusted: readonly string[] = []): (incoming: IncomingMessage) => string {
  if (trusted.length === 0) return (incoming) => incoming.socket.remoteAddress ?? 'unknown'
  const trust = proxyaddr.compile([...trusted])
  return (incoming) => {
    const peer = incoming.socket.remoteAddress ?? 'unknown'
    if (!trust(peer, 0)) return peer
    const chain = forwardedFor(incoming.headers.forwarded) ?? incoming.headers['x-forwarded-for'] ?? ''
    return proxyaddr({ headers: { 'x-forwarded-for': chain }, socket: { remoteAddress: peer } } as unknown as IncomingMessage, trust)
  }
}

/**
 * The `for=` addresses of a Forwarded header as an X-Forwarded-For list (ports and brackets
 * taken off), or undefined when there is none or it does not parse: a malformed header is no
 * evidence of anything.
 */
function forwardedFor(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  let elements: Array<Record<string, string>>
  try {
    elements = parseForwarded(header)
  } catch {
    return undefined
  }
  const addresses = elements.map((element) => element.for).filter((value): value is string => value !== undefined)
  if (addresses.length !== elements.length || addresses.length === 0) return undefined
  return addresses.map(withoutPort).join(', ')
}

function withoutPort(node: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node)
  if (bracketed) return bracketed[1]!
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(node)
  return v4 ? v4[1]! : node
}
