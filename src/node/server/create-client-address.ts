import type { IncomingMessage } from 'node:http'
import parseForwarded from 'forwarded-parse'
import proxyaddr from 'proxy-addr'

/** The headers a trusted proxy may name the client in (`--trust-proxy-header`), the default first. */
export const FORWARDING_HEADERS = ['X-Forwarded-For', 'Forwarded'] as const
export type ForwardingHeader = (typeof FORWARDING_HEADERS)[number]

/** The proxies whose word on the client is taken (`--trust-proxy`), and the one header they write it in. */
export interface TrustedProxies {
  proxies: readonly string[]
  header: ForwardingHeader
}

/**
 * Who the client of a request is, for the per-address limit (D16): the socket's peer, unless the
 * peer is a trusted proxy (`--trust-proxy`), in which case the address the one header its
 * operator names (`--trust-proxy-header`: `X-Forwarded-For` by default, or `Forwarded`, RFC 7239)
 * gives, walking back through trusted proxies only (proxy-addr). The other header is never read:
 * a proxy that appends to one passes the other on as the client wrote it (D24). From any other
 * peer neither is read, so a client cannot choose its own bucket
 * (docs/running-for-a-team.md#behind-a-proxy).
 *
 * @example
 * const clientAddress = createClientAddress({ proxies: ['10.0.0.0/8'], header: 'X-Forwarded-For' })
 * clientAddress(incoming) // '203.0.113.7' when a proxy at 10.0.0.2 forwarded it
 */
export function createClientAddress(trusted?: TrustedProxies): (incoming: IncomingMessage) => string {
  if (trusted === undefined || trusted.proxies.length === 0)
    return (incoming) => incoming.socket.remoteAddress ?? 'unknown'
  const trust = proxyaddr.compile([...trusted.proxies])
  const chainOf =
    trusted.header === 'Forwarded'
      ? (incoming: IncomingMessage) => forwardedFor(incoming.headers.forwarded) ?? ''
      : (incoming: IncomingMessage) => incoming.headers['x-forwarded-for'] ?? ''
  return (incoming) => {
    const peer = incoming.socket.remoteAddress ?? 'unknown'
    if (!trust(peer, 0)) return peer
    return proxyaddr(
      {
        headers: { 'x-forwarded-for': chainOf(incoming) },
        socket: { remoteAddress: peer },
      } as unknown as IncomingMessage,
      trust,
    )
  }
}

/**
 * The `for=` addresses of a Forwarded header as an X-Forwarded-For list (ports and brackets
 * taken off), or undefined when there is none or it does not parse: a malformed header is no
 * evidence of anything, and the client is then the proxy itself.
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
