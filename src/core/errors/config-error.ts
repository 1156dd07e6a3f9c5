/** Reports bad configuration, never per request. */
export class ConfigError extends Error {
  /** @param about lets the CLI name the flag at fault. */
  constructor(
    message: string,
    readonly about?: { option: string; entry: string; problem: string },
  ) {
    super(message)
    this.name = 'ConfigError'
  }

  static ofEntry(option: string, entry: string, problem: string): ConfigError {
    return new ConfigError(`${option}: ${problem}`, { option, entry, problem })
  }
}

/** Lets the admin API answer 404 by type. */
export class UnknownKeyError extends ConfigError {
  constructor(readonly key: string) {
    super(`no configured key ${JSON.stringify(key)}`)
    this.name = 'UnknownKeyError'
  }
}
