import type { ConfigError } from '../../core/errors/config-error.js'
import type { ScenarioFlag } from '../options/parse-options.js'

/**
 * A ConfigError as `start` prints it. An entry of `scenarios.keys` came from a `--scenario` pair:
 * it is named by that pair's position, as typed (`--scenario #2: sandbox-fre-key is no configured
 * key; did you mean sandbox-free-key?`), or by the environment variable that held it.
 *
 * @example
 * describeConfigError(error, [{ key: 'a', name: 'down' }], 'cli') // '--scenario #1: …'
 */
export function describeConfigError(
  error: ConfigError,
  scenarios: readonly ScenarioFlag[] | undefined,
  source: string | undefined,
): string {
  const about = error.about
  if (about?.option !== 'scenarios.keys' || scenarios === undefined) return error.message
  // A key given twice takes its last scenario: that pair is the one in force.
  const position = scenarios.findLastIndex((pair) => pair.key === about.entry) + 1
  if (position === 0) return error.message
  return `${source === 'env' ? 'PETSTORE_SANDBOX_SCENARIO' : '--scenario'} #${position}: ${about.problem}`
}
