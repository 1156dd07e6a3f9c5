import ipaddr from 'ipaddr.js'

// Gives one host a whole /64 in these networks (D32).
const COUNTED_PER_NETWORK: Array<[ipaddr.IPv6, number]> = [
  [ipaddr.IPv6.parse('2000::'), 3],
  [ipaddr.IPv6.parse('fc00::'), 7],
]
// Shares Teredo's /64 among its relay's clients.
const TEREDO: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2001::'), 32]

/** Names whom an address counts as: IPv6 by its /64 (D32). */
export function countedClient(address: string): string {
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address
  const ip = ipaddr.IPv6.parse(address)
  if (!COUNTED_PER_NETWORK.some((network) => ip.match(network)) || ip.match(TEREDO)) return address
  return `${new ipaddr.IPv6([...ip.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`
}
