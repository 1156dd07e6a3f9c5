// How often the parent is looked at: a stop is noticed within this long.
const INTERVAL_MS = 500

/**
 * Calls `onOrphaned` once when this process's parent goes away (its parent pid changes). `npx`
 * runs the CLI under `sh -c` and does not pass a SIGTERM on through it: when the shell or npm
 * dies, the sandbox would keep running and hold its port (docs/cli.md#stopping). The timer does
 * not keep the process alive.
 *
 * @example
 * const stop = watchParent(() => shutdown())
 */
export function watchParent(onOrphaned: () => void, parentPid: () => number = () => process.ppid): () => void {
  const original = parentPid()
  const timer = setInterval(() => {
    if (parentPid() === original) return
    clearInterval(timer)
    onOrphaned()
  }, INTERVAL_MS)
  timer.unref()
  return () => clearInterval(timer)
}
