import { InvalidArgumentError } from 'commander'
import proxyaddr from 'proxy-addr'
import { FORWARDING_HEADERS, type ForwardingHeader } from '../server/create-client-address.js'

/** Parses `--max-pets`, seeded pets included. */
export function parseMaxPets(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected a whole number such as 1000000.')
  return Number(value)
}

/** Parses `--trust-proxy`. */
export function parseTrustedProxy(value: string, previous: string[] | undefined): string[] {
  const entries = value.split(/[\s,]+/).filter(Boolean)
  for (const entry of entries) {
    try {
      proxyaddr.compile(entry)
    } catch {
      throw new InvalidArgumentError(
        `${JSON.stringify(entry)} is not an address, a CIDR range such as 10.0.0.0/8, ` +
          'or loopback, linklocal, uniquelocal.',
      )
    }
  }
  if (entries.length === 0) throw new InvalidArgumentError('expected an address or a CIDR range such as 10.0.0.0/8.')
  return [...(previous ?? []), ...entries]
}

/** Parses `--trust-proxy-header`, in any case (D24). */
export function parseForwardingHeader(value: string): ForwardingHeader {
  const header = FORWARDING_HEADERS.find((name) => name.toLowerCase() === value.trim().toLowerCase())
  if (header === undefined) throw new InvalidArgumentError(`expected ${FORWARDING_HEADERS.join(' or ')}.`)
  return header
}
