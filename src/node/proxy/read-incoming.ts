import type { IncomingMessage } from 'node:http'

/** The whole request body, or undefined once it is larger than `maxBytes` (the rest is left unread). */
export async function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
