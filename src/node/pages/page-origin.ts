import type { IncomingMessage } from 'node:http'

// A Host a browser could have sent: a name or IPv4 address, or a bracketed IPv6 address, and a port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/

/**
 * The origin a page is seen at: the request's Host when it is a plain host name (a sandbox bound to
 * all interfaces is reached by a name it cannot know), otherwise the address it listens on.
 *
 * @example
 * pageOrigin(incoming, 'http://0.0.0.0:4010') // 'http://devbox.local:4010' for Host: devbox.local:4010
 */
export function pageOrigin(incoming: IncomingMessage, listening: string): string {
  const host = incoming.headers.host
  return host !== undefined && HOST.test(host) ? `http://${host}` : listening
}
