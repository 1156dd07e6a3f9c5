import type { IncomingMessage } from 'node:http'

/** The most body the proxy buffers before forwarding; the sandbox itself refuses bodies far smaller. */
const MAX_BODY_BYTES = 16 * 1024 * 1024

/** The whole request body, or undefined when it is larger than MAX_BODY_BYTES. */
export async function readIncoming(incoming: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
