import type { Command } from 'commander'
import { ConfigError } from '../../core/errors/config-error.js'
import type { ProgramIo } from '../options/program-io.js'

/**
 * `petstore-sandbox learn <file.har>`: the world a recording shows, as a capsule on stdout (D41), to
 * commit beside a test and start from (`start --from`, `createSandbox({ from })`); exit 1 naming what
 * is wrong when the file is no HAR or has no entry to learn from.
 */
export function addLearnCommand(program: Command, io: ProgramIo): void {
  program
    .command('learn')
    .description('Write the world a recording (HAR 1.2) shows as a capsule on stdout: petstore-sandbox learn staging.har > world.capsule.json')
    .argument('<file.har>', "a HAR with response bodies (Playwright's recordHar, a browser's export, GET /__sandbox/requests.har)")
    .action(async (file: string) => {
      const { learnCapsuleFile } = await import('../options/load-capsule-file.js')
      try {
        io.stdout(JSON.stringify(await learnCapsuleFile(file), null, 2))
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error
        program.error(`error: ${error.message}`, { exitCode: 1 })
      }
    })
}
