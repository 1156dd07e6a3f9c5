import { ConfigError } from '../errors/config-error.js'
import { checkInput } from '../contract/check-input.js'
import type { ApiKey, KeyConfig } from './key-config.js'
import { DEMO_KEYS } from './demo-keys.js'
import { PLANS, type Limits } from './plans.js'

/**
 * Validates key configuration (the `keys` option, a keys file's `keys`) against the admin
 * document's `KeysFile` schema and resolves each key's limits. Every problem names the entry
 * (`keys[2].plan`), never the key, so a bad keys file is fixed in one look.
 *
 * @example
 * resolveKeys([{ key: 'team-a-key', plan: 'pro' }]) // [{ key: 'team-a-key', plan: 'pro', perMinute: 300, perDay: 10000 }]
 */
export function resolveKeys(input: unknown): ApiKey[] {
  const { keys } = checkInput<{ keys: KeyConfig[] }>('KeysFile', { keys: input })
  const seen = new Set<string>()
  return keys.map((entry, index) => {
    if (seen.has(entry.key)) throw new ConfigError(`keys[${index}].key repeats an earlier key`)
    seen.add(entry.key)
    return limitsOf(entry)
  })
}

/**
 * Validates one key entry (schema `KeyConfig`: a bearer token of 8 or more characters, a plan,
 * limits an enterprise key must give) and resolves its limits; problems name `where` first.
 *
 * @example
 * resolveKey({ key: 'team-a-key', plan: 'pro' }) // { key: 'team-a-key', plan: 'pro', perMinute: 300, perDay: 10000 }
 */
export function resolveKey(entry: unknown, where = ''): ApiKey {
  return limitsOf(checkInput<KeyConfig>('KeyConfig', entry, where))
}

/**
 * The demo keys, resolved without compiling the schema: they are constants (a unit test holds
 * them to it), and a sandbox made with the defaults, as a test file makes it, then compiles
 * nothing it does not use (BENCHMARKS.md, cold cost of a test file).
 */
export function resolveDemoKeys(): ApiKey[] {
  return DEMO_KEYS.map(limitsOf)
}

/** Resolves a key its schema checked already: its plan's limits where it gives none. */
export function limitsOf({ key, plan, perMinute, perDay }: KeyConfig): ApiKey {
  // The schema requires both limits of an enterprise key, the one plan without defaults.
  const defaults: Limits | undefined = PLANS[plan]
  return { key, plan, perMinute: perMinute ?? defaults?.perMinute ?? 0, perDay: perDay ?? defaults?.perDay ?? 0 }
}
