/** Reports a bad option or configuration file, when a sandbox is created (never per request). */
export class ConfigError extends Error {
  /** @param about the entry of a list option at fault, so the CLI can name its flag instead (`--scenario #2: …`). */
  constructor(
    message: string,
    readonly about?: { option: string; entry: string; problem: string },
  ) {
    super(message)
    this.name = 'ConfigError'
  }

  /** Reports one entry of a list option: `scenarios.keys: <problem>`. */
  static ofEntry(option: string, entry: string, problem: string): ConfigError {
    return new ConfigError(`${option}: ${problem}`, { option, entry, problem })
  }
}

/** Reports a key that is not configured, so the admin API answers 404 by type, not by wording. */
export class UnknownKeyError extends ConfigError {
  constructor(readonly key: string) {
    super(`no configured key ${JSON.stringify(key)}`)
    this.name = 'UnknownKeyError'
  }
}
