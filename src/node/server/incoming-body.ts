import type { IncomingMessage, ServerResponse } from 'node:http'

// After answering, at most this much of an unread body is read and thrown away so the client
// can read the answer; a client still sending beyond it is cut off. Twice the proxy's forwarding
// cap, so a body the proxy refuses for its size is drained too.
const MAX_DISCARD_BYTES = 32 * 1024 * 1024

/**
 * Ends an answer whose request body is still arriving once the rest of it is read and thrown
 * away (or the connection is cut past MAX_DISCARD_BYTES). Closed with the body still arriving,
 * the connection is reset, and a reset destroys the answer waiting in the client's buffer
 * (RFC 9112 9.6, "lingering close").
 */
export function endAfterBody(incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (incoming.readableEnded || incoming.destroyed) {
    outgoing.end()
    return
  }
  let discarded = 0
  const end = () => outgoing.end()
  incoming.once('end', end)
  incoming.once('close', end)
  incoming.on('data', (chunk: Buffer) => {
    discarded += chunk.byteLength
    if (discarded > MAX_DISCARD_BYTES) incoming.socket.destroy()
  })
  incoming.resume()
}

/**
 * A request body as a web stream, with backpressure. Unlike `Readable.toWeb`, cancelling it does
 * not destroy the socket: a body refused half-way (413) stops filling the stream, and the rest
 * is drained after the answer (`endAfterBody`), so the client reads the Error body instead of a
 * reset connection.
 */
export function incomingBody(incoming: IncomingMessage) {
  let cancelled = false
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.on('data', (chunk: Buffer) => {
          if (cancelled) return
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause()
        })
        incoming.once('end', () => {
          if (!cancelled) controller.close()
        })
        incoming.once('error', (error) => {
          if (!cancelled) controller.error(error)
        })
      },
      pull() {
        incoming.resume()
      },
      cancel() {
        cancelled = true
      },
    },
    { highWaterMark: 4 },
  )
  incoming.pause()
  return {
    stream,
    /** Stops filling the stream, whoever holds it: what arrives from now on is `endAfterBody`'s to drain. */
    stop: () => {
      cancelled = true
    },
  }
}
