import { ConfigError } from '../errors/config-error.js'
import { checkInput } from '../contract/check-input.js'
import type { ApiKey, KeyConfig } from './key-config.js'
import { DEMO_KEYS } from './demo-keys.js'
import { PLANS, type Limits } from './plans.js'

/** Checks keys against `KeysFile`, resolving their limits; errors never quote a key. */
export function resolveKeys(input: unknown): ApiKey[] {
  const { keys } = checkInput<{ keys: KeyConfig[] }>('KeysFile', { keys: input })
  const seen = new Set<string>()
  return keys.map((entry, index) => {
    if (seen.has(entry.key)) throw new ConfigError(`keys[${index}].key repeats an earlier key`)
    seen.add(entry.key)
    return limitsOf(entry)
  })
}

export function resolveKey(entry: unknown, where = ''): ApiKey {
  return limitsOf(checkInput<KeyConfig>('KeyConfig', entry, where))
}

/** Resolves the demo keys without compiling the schema (BENCHMARKS.md, "Cold cost of a test file"). */
export function resolveDemoKeys(): ApiKey[] {
  return DEMO_KEYS.map(limitsOf)
}

export function limitsOf({ key, plan, perMinute, perDay }: KeyConfig): ApiKey {
  // The schema requires both limits of an enterprise key.
  const defaults: Limits | undefined = PLANS[plan]
  return { key, plan, perMinute: perMinute ?? defaults?.perMinute ?? 0, perDay: perDay ?? defaults?.perDay ?? 0 }
}
