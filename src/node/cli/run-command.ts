import { type ChildProcess, spawn } from 'node:child_process'
import { constants } from 'node:os'
import type { ProgramIo } from '../options/program-io.js'
import { watchParent } from '../server/watch-parent.js'
import { serveSandbox, type ServedSandbox, type StartOptions } from './start-sandbox.js'
import { newRunId, RUN_ID_VARIABLE } from '../testing/worker-session.js'

/** Passed on to the command, which decides how to end. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** Lists the signals `run` raises on itself; others end it with 128 + n (D40). */
const RAISED: ReadonlySet<NodeJS.Signals> = new Set([...FORWARDED, 'SIGKILL'])

type Ending = { code: number; signal?: undefined } | { signal: NodeJS.Signals; code?: undefined }

/** Runs `run [start's options] -- <command>` and ends as the command did (D40). */
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
    // Our listeners go first; the shell's exit code stands in (D40).
    for (const signal of FORWARDED) process.off(signal, pass)
    process.kill(process.pid, how.signal)
    setTimeout(() => process.exit(code), 1_000)
  }
  const pass = (signal: NodeJS.Signals): void => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill(signal)
    else if (child === undefined) void end({ signal })
  }
  // Registered first: the sandbox may be signalled before it is ready.
  for (const signal of FORWARDED) process.on(signal, pass)
  // npx does not pass its signals on (docs/cli.md#stopping).
  watchParent(() => pass('SIGTERM'))

  served = await serveSandbox(options, { ...io, stdout: io.stderr }, (listening) => (served = listening))
  if (ending) return
  child = spawn(command, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      PETSTORE_SANDBOX_URL: loopback(served.url),
      // One run id for every worker of the test runner (D43).
      [RUN_ID_VARIABLE]: process.env[RUN_ID_VARIABLE] || newRunId(),
      ...(options.adminToken === undefined ? {} : { PETSTORE_SANDBOX_ADMIN_TOKEN: options.adminToken }),
    },
  })
  const ended = await new Promise<Ending | Error>((resolve) => {
    child!.once('error', resolve)
    child!.once('exit', (code, signal) => resolve(signal === null ? { code: code ?? 1 } : { signal }))
  })
  if (ended instanceof Error) {
    // As a shell says: 127 not found, 126 otherwise.
    const code = (ended as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such command (is it installed, and on PATH?)' : (code ?? ended.message)
    io.stderr(`error: cannot run ${command}: ${why}`)
    return end({ code: code === 'ENOENT' ? 127 : 126 })
  }
  return end(ended)
}

/** Returns the base URL a local command calls: every interface is reached on loopback. */
function loopback(url: string): string {
  const parsed = new URL(url)
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1'
  else if (parsed.hostname === '[::]') parsed.hostname = '[::1]'
  return parsed.href.replace(/\/$/, '')
}
