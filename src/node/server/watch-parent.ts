import { readFileSync } from 'node:fs'

const INTERVAL_MS = 500

/** Calls `onOrphaned` once the parent, or under npm the grandparent, goes away (docs/cli.md#stopping). */
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

function parentOf(pid: number): number | undefined {
  try {
    // The command name may hold spaces and ')': count fields from the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}
