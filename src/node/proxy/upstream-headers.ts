import { SOURCE_HEADER } from '../../core/request-log/create-request-log.js'
import { notForwarded } from './hop-by-hop-headers.js'

/**
 * The upstream's raw header pairs as the client gets them: unchanged, less the connection's own
 * headers (those `Connection` names too), with the length of the bytes actually written and where
 * the answer came from.
 */
export function upstreamHeaders(rawHeaders: string[], bodyLength: number, head: boolean): string[] {
  const connection: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'connection') connection.push(rawHeaders[i + 1]!)
  const skipped = notForwarded(connection)
  const written: string[] = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase()
    if (skipped.has(name) || name === SOURCE_HEADER.toLowerCase() || (name === 'content-length' && !head)) continue
    written.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  }
  if (!head) written.push('Content-Length', String(bodyLength))
  written.push(SOURCE_HEADER, 'upstream')
  return written
}
