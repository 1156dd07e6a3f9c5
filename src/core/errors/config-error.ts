/**
 * A bad option or configuration file, found when a sandbox is created (never per request). The CLI
 * prints its message as one line and exits non-zero.
 *
 * @example
 * expect(() => createSandbox({ pets: -1 })).toThrow(ConfigError)
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}
