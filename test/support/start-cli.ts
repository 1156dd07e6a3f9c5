import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/petstore-sandbox.js', import.meta.url))

export interface CliProcess {
  /** The API base, e.g. http://127.0.0.1:41234/v1. */
  url: string
  child: ChildProcess
  /** Everything printed so far on stdout and stderr. */
  output(): string
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Runs `petstore-sandbox <args>` to its end, for options that must fail fast. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    // A bound for a CLI that hangs, wide enough for a busy machine: a slow run is no failure.
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** Starts `petstore-sandbox <command> --port 0 <args>` (`start` by default) and resolves once it listens. */
export function startCli(args: string[] = [], env: NodeJS.ProcessEnv = {}, command = 'start'): Promise<CliProcess> {
  const child = spawn(process.execPath, [BIN, command, '--port', '0', ...args], {
    env: { ...process.env, PORT: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the CLI did not start within 15 s:\n${output}`))
    }, 15_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on (http:\/\/\S+\/v1)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({
          url: match[1]!,
          child,
          output: () => output,
          stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal)
            return exited
          },
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    void exited.then(({ code }) => {
      clearTimeout(timer)
      reject(new Error(`the CLI exited with ${code} before listening:\n${output}`))
    })
  })
}
