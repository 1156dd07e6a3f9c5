import type { Command } from 'commander'
import { ConfigError } from '../../core/errors/config-error.js'
import type { ProgramIo } from '../options/program-io.js'

/** Adds `learn <file.har>`, printing a capsule (D41), and `weather <file.har>`, printing a faults document (D45). */
export function addLearnCommand(program: Command, io: ProgramIo): void {
  program
    .command('learn')
    .description(
      'Write the world a recording (HAR 1.2) shows as a capsule on stdout: ' +
        'petstore-sandbox learn staging.har > world.capsule.json',
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
      'Write the weather a recording (HAR 1.2) shows as a faults document on stdout: ' +
        'petstore-sandbox weather staging.har > weather.json',
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
