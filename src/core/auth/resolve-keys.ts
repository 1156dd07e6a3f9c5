import { ConfigError } from '../errors/config-error.js'
import type { ApiKey } from './key-config.js'
import { resolveKey } from './resolve-key.js'

/**
 * Validates key configuration and resolves each key's limits. Every problem names the entry
 * (`keys[2]`) so a bad keys file is fixed in one look.
 */
export function resolveKeys(input: unknown, source = 'keys'): ApiKey[] {
  if (!Array.isArray(input)) throw new ConfigError(`${source} must be an array of key entries`)
  if (input.length === 0) throw new ConfigError(`${source} must hold at least one key`)
  const seen = new Set<string>()
  return input.map((entry: unknown, index) => {
    const where = `${source}[${index}]`
    const resolved = resolveKey(entry, where)
    if (seen.has(resolved.key)) throw new ConfigError(`${where}.key repeats an earlier key`)
    seen.add(resolved.key)
    return resolved
  })
}
