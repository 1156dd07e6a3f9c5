import { readFileSync } from 'node:fs'

// How often the shell is looked at: a SIGINT is acted on within two of these.
const INTERVAL_MS = 500
// A tick this late means this process, or the whole machine, was stopped or frozen meanwhile.
const LATE_TICK_MS = 10 * INTERVAL_MS
// Shells npm (or a tool of an npm script) may run the sandbox through with `-c`.
const SHELLS = new Set(['sh', 'dash', 'bash', 'ash', 'zsh', 'ksh', 'mksh', 'busybox'])

export interface ShellWakeOptions {
  /** Wall-clock milliseconds: a suspended machine shows as a late tick in it. */
  now?: () => number
  /** Whether to watch at all; by default only under npm, whose signals stop at the shell. */
  underNpm?: boolean
}

/**
 * Calls `onSignalled` once when the `sh -c` that npm runs this process through is sent a signal it
 * keeps: npm passes a SIGINT on to that shell alone, and dash holds it until its child exits. A shell
 * blocked on its only child never runs, so its context-switch counts moving while it lives mean a
 * signal woke it; wake-ups with a known cause (another child, this process stopped and continued,
 * a frozen or suspended machine) are discounted, and a change counts only if still unexplained a
 * tick later (docs/cli.md#stopping). Returns a function that stops watching; the timer keeps
 * nothing alive.
 *
 * @example
 * const stop = watchShellWake(() => shutdown())
 */
export function watchShellWake(onSignalled: () => void, options: ShellWakeOptions = {}): () => void {
  const { now = Date.now, underNpm = process.env.npm_lifecycle_event !== undefined } = options
  const shell = process.ppid
  if (!underNpm || !isShellRunningCommand(shell)) return () => {}
  let baseline = wakeUps(shell)
  if (baseline === undefined) return () => {}
  let lastTick = now()
  let continued = false
  let suspect = false
  const onContinued = () => {
    continued = true
  }
  process.on('SIGCONT', onContinued)
  const stop = () => {
    clearInterval(timer)
    process.removeListener('SIGCONT', onContinued)
  }
  const timer = setInterval(() => {
    const tick = now()
    const late = tick - lastTick > LATE_TICK_MS
    lastTick = tick
    const count = wakeUps(shell)
    // The shell gone is watchParent's case; here it only ends the watch.
    if (count === undefined || process.ppid !== shell) return stop()
    if (late || continued || !onlyChildIsUs(shell)) {
      continued = false
      suspect = false
      baseline = count
      return
    }
    if (suspect) {
      stop()
      onSignalled()
      return
    }
    suspect = count !== baseline
  }, INTERVAL_MS)
  timer.unref()
  return stop
}

/** Whether `pid` is a shell started as `<shell> -c <command>`. */
function isShellRunningCommand(pid: number): boolean {
  try {
    const [program, flag] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    const name = program?.slice(program.lastIndexOf('/') + 1) ?? ''
    return SHELLS.has(name) && flag === '-c'
  } catch {
    return false
  }
}

/** How many times `pid` has been scheduled out, voluntarily or not; undefined once it is gone. */
function wakeUps(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const voluntary = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(status)
    const involuntary = /^nonvoluntary_ctxt_switches:\s*(\d+)$/m.exec(status)
    if (!voluntary || !involuntary) return undefined
    return Number(voluntary[1]) + Number(involuntary[1])
  } catch {
    return undefined
  }
}

/** Whether this process is the only child of `pid`; false where the kernel does not list children. */
function onlyChildIsUs(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() === String(process.pid)
  } catch {
    return false
  }
}
