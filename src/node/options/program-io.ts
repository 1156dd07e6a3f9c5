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
/** Writes lines to a standard stream, dropping them once it fails (EPIPE), so the process goes on serving. */
export function writeLines(stream: NodeJS.WritableStream): (line: string) => void {
  let failed = false
  stream.on('error', () => {
    failed = true
  })
  return (line) => {
    if (!failed) stream.write(`${line}\n`)
  }
}
