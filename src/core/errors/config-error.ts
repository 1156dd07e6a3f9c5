/**
 * A bad option or configuration file, found when a sandbox is created (never per request). The CLI
 * prints its message as one line and exits non-zero.
 *
 * @example
 * expect(() => createSandbox({ pets: -1 })).toThrow(ConfigError)
 */
export class ConfigError extends Error {
  /**
   * @param about the option and the entry of it at fault, and the problem alone, when the message
   *   is about one entry of a list option (`scenarios.keys`): the CLI names the flag it came from
   *   instead (`--scenario #2: …`).
   */
  constructor(
    message: string,
    readonly about?: { option: string; entry: string; problem: string },
  ) {
    super(message)
    this.name = 'ConfigError'
  }

  /** The error of one entry of a list option: `scenarios.keys: <problem>`. */
  static ofEntry(option: string, entry: string, problem: string): ConfigError {
    return new ConfigError(`${option}: ${problem}`, { option, entry, problem })
  }
}

/**
 * A call about a key that is not configured (`quota.get`, `scenarios.set`, a plan change): its own
 * type, so the admin API answers it 404 by what it is, not by its wording.
 */
export class UnknownKeyError extends ConfigError {
  constructor(readonly key: string) {
    super(`no configured key ${JSON.stringify(key)}`)
    this.name = 'UnknownKeyError'
  }
}
