import { watchParent } from './watch-parent.js'

/**
 * Stops what `served` gives on SIGINT or SIGTERM, or when the process that started this one goes
 * away (docs/cli.md#stopping): in-flight requests finish, then `onClosed`; a second signal ends
 * the process at once, as does a first one before anything is served. Register it before the
 * server listens: a supervisor may stop it as soon as it reads "Listening on". `underNpm` as
 * watchParent takes it (false for a worker, whose primary watches npm for all of them).
 */
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
    // Close first: once the line is out, a new connection is refused.
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
