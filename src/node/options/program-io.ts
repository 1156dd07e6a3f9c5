/** What a CLI command may do to the outside world; tests pass their own. */
export interface ProgramIo {
  stdout: (line: string) => void
  stderr: (line: string) => void
  colour: boolean
  onSignal: (signal: 'SIGINT' | 'SIGTERM', listener: () => void) => void
  version: string
}
/** Writes lines to a stream, dropping them once it fails (EPIPE), so the process goes on serving. */
export function writeLines(stream: NodeJS.WritableStream): (line: string) => void {
  let failed = false
  stream.on('error', () => {
    failed = true
  })
  return (line) => {
    if (!failed) stream.write(`${line}\n`)
  }
}
