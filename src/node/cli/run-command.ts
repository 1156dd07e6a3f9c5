import { type ChildProcess, spawn } from 'node:child_process'
import { constants } from 'node:os'
import type { ProgramIo } from '../options/program-io.js'
import { watchParent } from '../server/watch-parent.js'
import { serveSandbox, type ServedSandbox, type StartOptions } from './start-sandbox.js'
import { newRunId, RUN_ID_VARIABLE } from '../testing/worker-session.js'

/** Signals passed on to the command: it decides how to end, and the sandbox ends with it. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Signals `run` ends by when the command did, raised on itself: they only end a process. Any other
 * (SIGUSR1 opens Node's inspector, SIGQUIT dumps core) ends it with 128 + its number instead (D40).
 */
const RAISED: ReadonlySet<NodeJS.Signals> = new Set([...FORWARDED, 'SIGKILL'])

/** How the command ended: its exit code, or the signal that ended it. */
type Ending = { code: number; signal?: undefined } | { signal: NodeJS.Signals; code?: undefined }

/**
 * `petstore-sandbox run [start's options] -- <command> [args…]` (D40): the sandbox of `start`'s
 * options, served by `start`'s own code, then the command once the sandbox is ready, with
 * `PETSTORE_SANDBOX_URL` (the base URL with `/v1`), a run id in `PETSTORE_SANDBOX_RUN_ID` and, with an admin token,
 * `PETSTORE_SANDBOX_ADMIN_TOKEN` in its environment. Signals are passed on to the command; when it
 * ends, the sandbox stops and this process ends as the command did (its exit code, or its signal),
 * so the sandbox never outlives it. The process that started this one going away (npx killed)
 * counts as a SIGTERM. The sandbox's lines go to stderr: stdout is the command's.
 */
export async function runCommand(options: StartOptions, argv: readonly string[], io: ProgramIo): Promise<void> {
  const [command, ...args] = argv as [string, ...string[]]
  let served: ServedSandbox | undefined
  let child: ChildProcess | undefined
  let ending = false

  const end = async (how: Ending): Promise<void> => {
    if (ending) return
    ending = true
    await served?.close()
    if (how.signal === undefined) process.exit(how.code)
    const code = 128 + (constants.signals[how.signal] ?? 0)
    if (!RAISED.has(how.signal)) process.exit(code)
    // Ended by a signal, as the command was: the shell (or CI) sees the same. Our own listeners go
    // first, or the signal would only be heard. A dependency's listener (signal-exit, with
    // --state) re-raises it in its turn; should none end the process, the exit code a shell gives
    // that signal does.
    for (const signal of FORWARDED) process.off(signal, pass)
    process.kill(process.pid, how.signal)
    setTimeout(() => process.exit(code), 1_000)
  }
  // Before the command runs, a signal stops the sandbox and ends this process by that signal.
  const pass = (signal: NodeJS.Signals): void => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill(signal)
    else if (child === undefined) void end({ signal })
  }
  // Registered first, as `start` does: the sandbox listens, and may be signalled, before it is ready.
  for (const signal of FORWARDED) process.on(signal, pass)
  // npx does not pass its signals on (docs/cli.md#stopping): its going away is a SIGTERM.
  watchParent(() => pass('SIGTERM'))

  served = await serveSandbox(options, { ...io, stdout: io.stderr }, (listening) => (served = listening))
  if (ending) return
  child = spawn(command, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      PETSTORE_SANDBOX_URL: loopback(served.url),
      // One run id for every worker of the command's test runner (D43), unless the caller gave one.
      [RUN_ID_VARIABLE]: process.env[RUN_ID_VARIABLE] || newRunId(),
      ...(options.adminToken === undefined ? {} : { PETSTORE_SANDBOX_ADMIN_TOKEN: options.adminToken }),
    },
  })
  const ended = await new Promise<Ending | Error>((resolve) => {
    child!.once('error', resolve)
    child!.once('exit', (code, signal) => resolve(signal === null ? { code: code ?? 1 } : { signal }))
  })
  if (ended instanceof Error) {
    // The command could not be started: 127 for one not found, 126 otherwise, as a shell says.
    const code = (ended as NodeJS.ErrnoException).code
    io.stderr(
      `error: cannot run ${command}: ${code === 'ENOENT' ? 'no such command (is it installed, and on PATH?)' : (code ?? ended.message)}`,
    )
    return end({ code: code === 'ENOENT' ? 127 : 126 })
  }
  return end(ended)
}

/** The base URL a command on this machine calls: a server bound to every interface is reached on loopback. */
function loopback(url: string): string {
  const parsed = new URL(url)
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1'
  else if (parsed.hostname === '[::]') parsed.hostname = '[::1]'
  return parsed.href.replace(/\/$/, '')
}
