import { readFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { buildProgram } from './build-program.js'

/** Entry point of the `petstore-sandbox` command. */
export async function main(argv: string[]): Promise<void> {
  // The seeded pets live as long as the process, so every young-generation collection during
  // seeding sees them survive and V8 grows the young generation to its maximum (2 x 64 MB), which
  // it then keeps: with 100000 pets that was 275 MB resident instead of 185 MB, and slower. This
  // process is ours (the library never sets flags in its host), and growth is read per collection.
  setFlagsFromString('--semi-space-growth-factor=1')
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  const program = buildProgram({
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    colour: process.stdout.isTTY === true,
    // `on`, not `once`: a dependency (signal-exit) re-raises a signal when it sees no other
    // listener, so ours must stay registered while the graceful shutdown runs.
    onSignal: (signal, listener) => process.on(signal, listener),
    version,
  })
  await program.parseAsync(argv)
}
