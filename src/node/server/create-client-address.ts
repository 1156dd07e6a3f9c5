import type { IncomingMessage } from 'node:http'
import parseForwarded from 'forwarded-parse'
import proxyaddr from 'proxy-addr'

/** The headers a trusted proxy may name the client in (`--trust-proxy-header`), the default first. */
export const FORWARDING_HEADERS = ['X-Forwarded-For', 'Forwarded'] as const
export type ForwardingHeader = (typeof FORWARDING_HEADERS)[number]

/** The proxies trusted to name the client (`--trust-proxy`), and the header they write it in. */
export interface TrustedProxies {
  proxies: readonly string[]
  header: ForwardingHeader
}

/**
 * Names a request's client for the per-address limit (D16): the peer, or what a trusted proxy's one header says (D24).
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

/** Reads a Forwarded header's `for=` addresses as an X-Forwarded-For list; undefined when malformed. */
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
