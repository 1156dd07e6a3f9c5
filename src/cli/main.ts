import { readFileSync } from 'node:fs'
import { buildProgram } from './build-program.js'

/** Entry point of the `petstore-sandbox` command. */
export async function main(argv: string[]): Promise<void> {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  const program = buildProgram({
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    colour: process.stdout.isTTY === true,
    onSignal: (signal, listener) => process.once(signal, listener),
    version,
  })
  await program.parseAsync(argv)
}
