import { readFileSync } from 'node:fs'

// How often the parent is looked at: a stop is noticed within this long.
const INTERVAL_MS = 500

/**
 * Calls `onOrphaned` once when the process that started this one goes away. `npx` and `npm run`
 * start the CLI through a `sh -c` of their own and do not always pass a signal on through it:
 * when npm dies, the shell (or the sandbox itself) is left behind, holding the port
 * (docs/cli.md#stopping). So the parent pid is watched, and under npm (`npm_lifecycle_event` set)
 * the grandparent's too, read from /proc where there is one. The timer keeps nothing alive.
 *
 * @example
 * const stop = watchParent(() => shutdown())
 */
export function watchParent(
  onOrphaned: () => void,
  underNpm = process.env.npm_lifecycle_event !== undefined,
): () => void {
  const ancestors = () => {
    const parent = process.ppid
    return underNpm ? [parent, parentOf(parent)] : [parent]
  }
  const original = ancestors().join(' ')
  const timer = setInterval(() => {
    if (ancestors().join(' ') === original) return
    clearInterval(timer)
    onOrphaned()
  }, INTERVAL_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** The parent pid of `pid` (Linux /proc), or undefined where it cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    // The command name in parentheses may hold spaces: the fields after its last ')' are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}
