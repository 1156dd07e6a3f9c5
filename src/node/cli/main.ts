import { readFileSync } from 'node:fs'
import { buildProgram } from './build-program.js'
import { writeLines } from '../options/program-io.js'

/** Entry point of the `petstore-sandbox` command. */
export async function main(argv: string[]): Promise<void> {
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  // Hosting platforms set PORT.
  if (process.env.PETSTORE_SANDBOX_PORT === undefined && process.env.PORT !== undefined)
    process.env.PETSTORE_SANDBOX_PORT = process.env.PORT
  const program = buildProgram({
    stdout: writeLines(process.stdout),
    stderr: writeLines(process.stderr),
    colour: process.stdout.isTTY === true,
    // Stays registered: signal-exit re-raises a signal it sees no other listener for.
    onSignal: (signal, listener) => process.on(signal, listener),
    version,
  })
  await program.parseAsync(argv)
}
