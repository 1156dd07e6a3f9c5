import type { IncomingMessage } from 'node:http'

/**
 * The whole request body, or undefined once it is larger than `maxBytes`: reading then stops
 * (the rest is left unread, the socket open) so that the refusal can still be written.
 */
export function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      incoming.off('data', onData)
      incoming.pause()
      resolve(undefined)
    }
    incoming.on('data', onData)
    incoming.once('end', () => resolve(Buffer.concat(chunks)))
    incoming.once('error', reject)
  })
}
