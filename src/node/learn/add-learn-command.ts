import type { Command } from 'commander'
import { ConfigError } from '../../core/errors/config-error.js'
import type { ProgramIo } from '../options/program-io.js'

/**
 * `petstore-sandbox learn <file.har>` and `weather <file.har>` (D45, a faults document fitted to its timings and statuses): the world a recording shows, as a capsule on stdout (D41), to
 * commit beside a test and start from (`start --from`, `createSandbox({ from })`); exit 1 naming what
 * is wrong when the file is no HAR or has no entry to learn from.
 */
export function addLearnCommand(program: Command, io: ProgramIo): void {
  program
    .command('learn')
    .description(
      'Write the world a recording (HAR 1.2) shows as a capsule on stdout: petstore-sandbox learn staging.har > world.capsule.json',
    )
    .argument(
      '<file.har>',
      "a HAR with response bodies (Playwright's recordHar, a browser's export, GET /__sandbox/requests.har)",
    )
    .action(async (file: string) => {
      const { learnCapsuleFile } = await import('../options/load-capsule-file.js')
      try {
        io.stdout(JSON.stringify(await learnCapsuleFile(file), null, 2))
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error
        program.error(`error: ${error.message}`, { exitCode: 1 })
      }
    })
  program
    .command('weather')
    .description(
      'Write the weather a recording (HAR 1.2) shows as a faults document on stdout: petstore-sandbox weather staging.har > weather.json',
    )
    .argument(
      '<file.har>',
      'a HAR with timings and statuses; pass its output back with --faults-file or PUT /__sandbox/faults',
    )
    .action(async (file: string) => {
      const [{ readJsonFile }, { fitWeather }] = await Promise.all([
        import('../options/read-input-file.js'),
        import('../../core/learning/fit-weather.js'),
      ])
      try {
        const json = await readJsonFile(file, 'har file')
        try {
          io.stdout(JSON.stringify(fitWeather(json, 'har'), null, 2))
        } catch (error) {
          throw error instanceof ConfigError ? new ConfigError(`har file ${file}: ${error.message}`) : error
        }
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error
        program.error(`error: ${error.message}`, { exitCode: 1 })
      }
    })
}
