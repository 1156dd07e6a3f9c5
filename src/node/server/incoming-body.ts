import type { IncomingMessage } from 'node:http'

// After answering, at most this much of an unread body is read and thrown away so the client
// can read the answer; a client still sending beyond it is cut off.
const MAX_DISCARD_BYTES = 8 * 1024 * 1024

/**
 * A request body as a web stream, with backpressure. Unlike `Readable.toWeb`, cancelling it does
 * not destroy the socket: a body refused half-way (413) is drained after the answer, so the
 * client reads the Error body instead of a reset connection.
 */
export function incomingBody(incoming: IncomingMessage) {
  let discarding = false
  let discarded = 0
  const discard = (onDrained?: () => void) => {
    if (onDrained !== undefined) {
      if (incoming.readableEnded || incoming.destroyed) onDrained()
      else {
        incoming.once('end', onDrained)
        incoming.once('close', onDrained)
      }
    }
    if (discarding) return
    discarding = true
    incoming.resume()
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.on('data', (chunk: Buffer) => {
          if (discarding) {
            discarded += chunk.byteLength
            if (discarded > MAX_DISCARD_BYTES) incoming.socket.destroy()
            return
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause()
        })
        incoming.once('end', () => {
          if (!discarding) controller.close()
        })
        incoming.once('error', (error) => {
          if (!discarding) controller.error(error)
        })
      },
      pull() {
        incoming.resume()
      },
      cancel: () => discard(),
    },
    { highWaterMark: 4 },
  )
  incoming.pause()
  return {
    stream,
    /**
     * Reads whatever the handlers left unread and throws it away (past MAX_DISCARD_BYTES the
     * connection is cut); `onDrained` runs once the body has ended or the connection is gone.
     */
    discard,
  }
}
