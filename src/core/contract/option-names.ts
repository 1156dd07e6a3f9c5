import { ConfigError } from '../errors/config-error.js'
import { unknownName } from './describe-input-errors.js'

/**
 * The names an options object of the library takes, held by the compiler to its type: a name
 * added to `Options` fails the typecheck where its list is written until it is listed there.
 *
 * @example
 * const RESET_OPTIONS = optionNames<SandboxResetOptions>({ clock: true })
 */
export function optionNames<Options extends object>(
  names: { [Name in keyof Required<Options>]: true },
): readonly string[] {
  return Object.keys(names)
}

/**
 * Refuses a name `names` lacks, as TypeScript would, for plain JavaScript: in the one describer's
 * words (`reset.clok: unknown field; did you mean clock?`), a name no near miss left unquoted.
 */
export function refuseUnknownOptions(
  options: object,
  names: readonly string[],
  where = '',
  root = 'the options object',
): void {
  for (const name of Object.keys(options)) {
    if (!names.includes(name)) throw new ConfigError(unknownName(name, names, where, [], root).message)
  }
}
