import { spawn, type ChildProcess } from 'node:child_process'
import { BIN } from './start-cli.js'

/**
 * Starts `petstore-sandbox start --port 0 <args>` and resolves as soon as it listens, before the
 * seed is in: at its "Seeding N pets; <origin>/readyz answers 503 until done" line.
 */
export function startSeedingCli(
  args: string[],
): Promise<{ origin: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'start', '--port', '0', '--log', 'off', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no Seeding line within 15 s:\n${output}`)), 15_000)
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Seeding \d+ pets; (http:\/\/\S+)\/readyz/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ origin: match[1]!, child, output: () => output })
      }
    })
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}:\n${output}`)))
  })
}
