import { ConfigError } from '../errors/config-error.js'
import { unknownName } from './describe-input-errors.js'

/** Lists an options type's names, held to it by the compiler. */
export function optionNames<Options extends object>(
  names: { [Name in keyof Required<Options>]: true },
): readonly string[] {
  return Object.keys(names)
}

/** Refuses an option `names` lacks, for plain JavaScript. */
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
