import { watchParent } from './watch-parent.js'

/** Stops what `served` gives on a signal or orphaning; register before listening. */
export function stopOnSignals(
  io: { stdout(line: string): void; onSignal(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void },
  served: () => { close(): Promise<void> } | undefined,
  { onClosed = () => undefined, underNpm }: { onClosed?: () => unknown; underNpm?: boolean | undefined } = {},
): void {
  let closing = false
  const shutdown = () => {
    if (closing) process.exit(1)
    closing = true
    const current = served()
    if (current === undefined) process.exit(0)
    // Closes first, so the line means new connections are refused.
    const closed = current.close()
    io.stdout('Shutting down: finishing in-flight requests')
    void closed.then(onClosed)
  }
  io.onSignal('SIGINT', shutdown)
  io.onSignal('SIGTERM', shutdown)
  watchParent(
    () => {
      if (!closing) shutdown()
    },
    ...(underNpm === undefined ? [] : [underNpm]),
  )
}
