import { type ChildProcess, spawn } from 'node:child_process'
import { constants } from 'node:os'
import type { ProgramIo } from '../options/program-io.js'
import { watchParent } from '../server/watch-parent.js'
import { serveSandbox, type ServedSandbox, type StartOptions } from './start-sandbox.js'
import { newRunId, RUN_ID_VARIABLE } from '../testing/worker-session.js'

/** Signals passed on to the command: it decides how to end, and the sandbox ends with it. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** Lists the signals `run` raises on itself when the command ended by one; others end it with 128 + n (D40). */
const RAISED: ReadonlySet<NodeJS.Signals> = new Set([...FORWARDED, 'SIGKILL'])

/** How the command ended: its exit code, or the signal that ended it. */
type Ending = { code: number; signal?: undefined } | { signal: NodeJS.Signals; code?: undefined }

/** Runs `run [start's options] -- <command>`: serves the sandbox, runs the command, ends as it did (D40). */
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
    // Ends by the command's signal, removing our listeners first; the shell's exit code for it stands in (D40).
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
    const why = code === 'ENOENT' ? 'no such command (is it installed, and on PATH?)' : (code ?? ended.message)
    io.stderr(`error: cannot run ${command}: ${why}`)
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
