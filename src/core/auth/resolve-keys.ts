import { ConfigError } from '../errors/config-error.js'
import { checkInput } from '../contract/check-input.js'
import type { ApiKey, KeyConfig } from './key-config.js'
import { DEMO_KEYS } from './demo-keys.js'
import { PLANS, type Limits } from './plans.js'

/** Checks key configuration against `KeysFile` and resolves each key's limits, naming entries, never keys. */
export function resolveKeys(input: unknown): ApiKey[] {
  const { keys } = checkInput<{ keys: KeyConfig[] }>('KeysFile', { keys: input })
  const seen = new Set<string>()
  return keys.map((entry, index) => {
    if (seen.has(entry.key)) throw new ConfigError(`keys[${index}].key repeats an earlier key`)
    seen.add(entry.key)
    return limitsOf(entry)
  })
}

/** Checks one key entry against `KeyConfig` and resolves its limits. */
export function resolveKey(entry: unknown, where = ''): ApiKey {
  return limitsOf(checkInput<KeyConfig>('KeyConfig', entry, where))
}

/** Resolves the demo keys without compiling the schema (BENCHMARKS.md, cold cost); a unit test holds them to it. */
export function resolveDemoKeys(): ApiKey[] {
  return DEMO_KEYS.map(limitsOf)
}

/** Resolves a key its schema checked already: its plan's limits where it gives none. */
export function limitsOf({ key, plan, perMinute, perDay }: KeyConfig): ApiKey {
  // Trusts the schema to require both limits of an enterprise key.
  const defaults: Limits | undefined = PLANS[plan]
  return { key, plan, perMinute: perMinute ?? defaults?.perMinute ?? 0, perDay: perDay ?? defaults?.perDay ?? 0 }
}
