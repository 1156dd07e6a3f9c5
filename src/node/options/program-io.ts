/** What a command of the CLI may do to the outside world; tests pass their own. */
export interface ProgramIo {
  stdout: (line: string) => void
  stderr: (line: string) => void
  /** Whether stdout is a terminal (colour in pretty logs). */
  colour: boolean
  /** Registers what to do on SIGINT/SIGTERM; the CLI passes `process.once`. */
  onSignal: (signal: 'SIGINT' | 'SIGTERM', listener: () => void) => void
  version: string
}
/**
 * The line writer of a standard stream, the one way the CLI prints: once the stream fails (its
 * reader gone, as after `start | grep -m1 Listening`: EPIPE), later lines are dropped and the
 * process goes on serving, where an unheard 'error' would end it.
 *
 * @example
 * const stdout = writeLines(process.stdout)
 * stdout('Listening on http://127.0.0.1:4010/v1')
 */
export function writeLines(stream: NodeJS.WritableStream): (line: string) => void {
  let failed = false
  stream.on('error', () => {
    failed = true
  })
  return (line) => {
    if (!failed) stream.write(`${line}\n`)
  }
}
