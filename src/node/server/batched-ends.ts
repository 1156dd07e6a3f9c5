import type { ServerResponse } from 'node:http'

/** Ends a response with its last bytes, now or with the batch. */
export type EndAnswer = (outgoing: ServerResponse, payload: string | Buffer | undefined) => void

/**
 * Creates an `end` that holds answers until the event loop has run every callback of its poll
 * phase, then ends them together, in order: the client reads a burst rather than being woken once
 * per answer (BENCHMARKS.md, "Closer to the wire").
 */
export function createBatchedEnds(schedule: (flush: () => void) => void = setImmediate): EndAnswer {
  let due: Array<[ServerResponse, string | Buffer | undefined]> = []
  const flush = () => {
    const ending = due
    due = []
    for (const [outgoing, payload] of ending) {
      if (outgoing.destroyed) continue
      try {
        outgoing.end(payload)
      } catch {
        // As an answer that failed to write before the batch: the connection goes, the rest are ended.
        outgoing.destroy()
      }
    }
  }
  return (outgoing, payload) => {
    if (due.length === 0) schedule(flush)
    due.push([outgoing, payload])
  }
}
