import { ConfigError } from '../errors/config-error.js'
import type { ApiKey, KeyConfig } from './key-config.js'
import { PLAN_NAMES, PLANS, type Plan } from './plans.js'

// RFC 6750 b64token: what may follow "Bearer " in an Authorization header.
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/

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
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ConfigError(`${where} must be an object with "key" and "plan"`)
    }
    const { key, plan, perMinute, perDay } = entry as Partial<Record<keyof KeyConfig, unknown>>
    if (typeof key !== 'string' || !TOKEN.test(key)) {
      throw new ConfigError(`${where}.key must be a non-empty token (letters, digits, -._~+/)`)
    }
    if (seen.has(key)) throw new ConfigError(`${where}.key repeats an earlier key`)
    seen.add(key)
    if (typeof plan !== 'string' || !PLAN_NAMES.includes(plan as Plan)) {
      throw new ConfigError(`${where}.plan must be one of ${PLAN_NAMES.join(', ')}`)
    }
    const defaults = PLANS[plan as Plan]
    const limit = (name: 'perMinute' | 'perDay', value: unknown): number => {
      if (value === undefined) {
        if (defaults === undefined) {
          throw new ConfigError(`${where}.${name} is required for enterprise keys`)
        }
        return defaults[name]
      }
      if (!Number.isSafeInteger(value) || (value as number) < 1) {
        throw new ConfigError(`${where}.${name} must be a whole number of 1 or more`)
      }
      return value as number
    }
    return {
      key,
      plan: plan as Plan,
      perMinute: limit('perMinute', perMinute),
      perDay: limit('perDay', perDay),
    }
  })
}
