import ipaddr from 'ipaddr.js'

// Global unicast and unique local IPv6 networks, where one host is given a whole /64 (D32).
const COUNTED_PER_NETWORK: Array<[ipaddr.IPv6, number]> = [
  [ipaddr.IPv6.parse('2000::'), 3],
  [ipaddr.IPv6.parse('fc00::'), 7],
]
// Teredo's /64 is its relay's, shared by all of that relay's clients.
const TEREDO: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2001::'), 32]

/**
 * Names whom a client address counts as (D16): an IPv6 address as its /64 network (D32), any other as itself.
 *
 * @example
 * countedClient('2001:db8:1:2:a:b:c:d') // '2001:db8:1:2::/64'
 * countedClient('::ffff:192.0.2.7')     // '::ffff:192.0.2.7'
 */
export function countedClient(address: string): string {
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address
  const ip = ipaddr.IPv6.parse(address)
  if (!COUNTED_PER_NETWORK.some((network) => ip.match(network)) || ip.match(TEREDO)) return address
  return `${new ipaddr.IPv6([...ip.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`
}
