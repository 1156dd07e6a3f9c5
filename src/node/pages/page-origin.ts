import type { IncomingMessage } from 'node:http'

// A name, an IPv4 or a bracketed IPv6 address, and a port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/

/** Returns the origin a page is seen at: a plain Host, else the address it listens on. */
export function pageOrigin(incoming: IncomingMessage, listening: string): string {
  const host = incoming.headers.host
  return host !== undefined && HOST.test(host) ? `http://${host}` : listening
}
