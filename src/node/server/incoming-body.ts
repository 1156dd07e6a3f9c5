import type { SandboxRequest } from '../../core/http/sandbox-request.js'
import type { IncomingMessage } from 'node:http'
import type { Writable } from 'node:stream'

/** A request body with backpressure. */
export interface IncomingBody {
  /** Unlike `Readable.toWeb`'s, a cancel leaves the socket open for the Error body. */
  stream: ReadableStream<Uint8Array>
  stop(): void
  /** Keeps the first `keep` bytes for the handlers after; past them `stream` fails. */
  take(keep: number): TakenBody
  /** Runs `release` once nothing can read the body (D38). */
  onRelease(release: () => void): void
  release(): void
}

export interface TakenBody {
  chunks: AsyncIterable<Uint8Array>
  taken(): number
  kept(): Buffer
}

const BODY = Symbol('petstore-sandbox.incomingBody')

export function incomingBody(incoming: IncomingMessage): IncomingBody {
  let stopped = false
  let ended = false
  let failure: unknown
  const queued: Buffer[] = []
  let wake: (() => void) | undefined
  incoming.on('data', (chunk: Buffer) => {
    if (stopped) return
    queued.push(chunk)
    incoming.pause()
    wake?.()
  })
  incoming.once('end', () => {
    ended = true
    wake?.()
  })
  incoming.once('error', (error) => {
    failure = error
    wake?.()
  })
  incoming.pause()
  const next = async (): Promise<Buffer | null> => {
    for (;;) {
      if (stopped) return null
      if (queued.length > 0) return queued.shift()!
      if (failure !== undefined) throw failure
      if (ended) return null
      await new Promise<void>((resolve) => {
        wake = resolve
        incoming.resume()
      })
      wake = undefined
    }
  }

  let kept: Buffer[] = []
  let keptBytes = 0
  let takenBytes = 0
  let replayed = 0
  const releases: Array<() => void> = []
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (replayed < kept.length) return controller.enqueue(bytesOf(kept[replayed++]!))
        if (takenBytes > keptBytes)
          return controller.error(new Error(`the body was passed on, and only its first ${keptBytes} bytes kept`))
        try {
          const chunk = await next()
          if (chunk === null) controller.close()
          else controller.enqueue(bytesOf(chunk))
        } catch (error) {
          controller.error(error)
        }
      },
      cancel() {
        stopped = true
      },
    },
    // Reads nothing until asked, so a handler that takes the body reads it first.
    { highWaterMark: 0 },
  )
  return {
    stream,
    stop() {
      stopped = true
      wake?.()
    },
    take(keep) {
      async function* chunks() {
        for (;;) {
          const chunk = await next()
          // A body cut short must not be passed on as whole.
          if (stopped) throw new Error('the body was no longer read: its answer was given')
          if (chunk === null) return
          takenBytes += chunk.length
          if (keptBytes < keep) {
            const part = keptBytes + chunk.length <= keep ? chunk : Buffer.from(chunk.subarray(0, keep - keptBytes))
            kept.push(part)
            keptBytes += part.length
          }
          yield bytesOf(chunk)
        }
      }
      return { chunks: chunks(), taken: () => takenBytes, kept: () => Buffer.concat(kept, keptBytes) }
    },
    onRelease(release) {
      releases.push(release)
    },
    release() {
      kept = []
      for (const release of releases.splice(0)) release()
    },
  }
}

export function leaveBody(request: SandboxRequest, body: IncomingBody): void {
  Object.defineProperty(request, BODY, { value: body })
}

export function takeBody(request: SandboxRequest): IncomingBody | undefined {
  return (request as Request & { [BODY]?: IncomingBody })[BODY]
}

function bytesOf(chunk: Buffer): Uint8Array {
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
}

export function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done)
      stream.off('close', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('close', done)
  })
}
