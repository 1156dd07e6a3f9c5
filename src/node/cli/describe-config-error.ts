import type { ConfigError } from '../../core/errors/config-error.js'
import type { ScenarioFlag } from '../options/parse-options.js'

/** Words a ConfigError as `start` prints it. */
export function describeConfigError(
  error: ConfigError,
  scenarios: readonly ScenarioFlag[] | undefined,
  source: string | undefined,
): string {
  const about = error.about
  if (about?.option !== 'scenarios.keys' || scenarios === undefined) return error.message
  // A key given twice takes its last scenario.
  const position = scenarios.findLastIndex((pair) => pair.key === about.entry) + 1
  if (position === 0) return error.message
  return `${source === 'env' ? 'PETSTORE_SANDBOX_SCENARIO' : '--scenario'} #${position}: ${about.problem}`
}
