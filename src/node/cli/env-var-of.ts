import type { Command, Option } from 'commander'

/** The prefix of the environment variables every `start` option can be read from. */
export const ENV_PREFIX = 'PETSTORE_SANDBOX_'

/**
 * Makes every option added to `command` from now on readable from `PETSTORE_SANDBOX_<FLAG>`
 * (`--max-pets` from `PETSTORE_SANDBOX_MAX_PETS`), as containers are configured; commander lists
 * each in `--help`, and a flag on the command line wins. It must wrap the command before its
 * options are added: commander listens for an option's variable only if it has one when added.
 *
 * @example
 * const start = fromEnvironment(program.command('start')).addOption(new Option('--max-pets <n>'))
 */
export function fromEnvironment(command: Command): Command {
  const addOption = command.addOption.bind(command)
  command.addOption = (option: Option) => {
    if (option.envVar === undefined && option.long !== undefined) option.env(envVarOf(option.long))
    return addOption(option)
  }
  return command
}

/**
 * The environment variable of a long flag.
 *
 * @example
 * envVarOf('--trust-proxy') // 'PETSTORE_SANDBOX_TRUST_PROXY'
 */
export function envVarOf(flag: string): string {
  return `${ENV_PREFIX}${flag.replace(/^--/, '').toUpperCase().replaceAll('-', '_')}`
}
