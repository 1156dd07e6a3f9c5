import type { IncomingMessage } from 'node:http'
import parseForwarded from 'forwarded-parse'
import proxyaddr from 'proxy-addr'

/** Lists the forwarding headers, the default first. */
export const FORWARDING_HEADERS = ['X-Forwarded-For', 'Forwarded'] as const
export type ForwardingHeader = (typeof FORWARDING_HEADERS)[number]

export interface TrustedProxies {
  proxies: readonly string[]
  header: ForwardingHeader
}

/** Names a request's client (D24). */
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

/** Reads Forwarded's `for=` chain; undefined when malformed. */
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
