import { type Command, Option } from 'commander'
import { LIMIT_OPTIONS } from '../server/server-limits.js'
import { integerIn } from './parse-options.js'

/** Adds the server's limits as hidden options. */
export function addServerLimitOptions(command: Command, { fromEnvironment }: { fromEnvironment: boolean }): Command {
  for (const { flag, min, variable } of Object.values(LIMIT_OPTIONS)) {
    const option = new Option(flag).argParser(integerIn(min, 3_600_000)).hideHelp()
    command.addOption(fromEnvironment ? option.env(variable) : option)
  }
  return command
}
