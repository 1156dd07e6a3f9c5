import { ConfigError } from '../errors/config-error.js'
import type { ApiKey, KeyConfig } from './key-config.js'
import { PLAN_NAMES, PLANS, type Plan } from './plans.js'

// RFC 6750 b64token: what may follow "Bearer " in an Authorization header.
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/

/**
 * Validates one key entry and resolves its limits; every problem names `where` (`keys[2]`, or
 * nothing for a key added at runtime), so a bad entry is fixed in one look.
 *
 * @example
 * resolveKey({ key: 'team-a-key', plan: 'pro' }) // { key: 'team-a-key', plan: 'pro', perMinute: 300, perDay: 10000 }
 */
export function resolveKey(entry: unknown, where = ''): ApiKey {
  const field = (name: string) => (where === '' ? name : `${where}.${name}`)
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new ConfigError(`${where === '' ? 'a key' : where} must be an object with "key" and "plan"`)
  }
  const { key, plan, perMinute, perDay } = entry as Partial<Record<keyof KeyConfig, unknown>>
  if (typeof key !== 'string' || !TOKEN.test(key)) {
    throw new ConfigError(`${field('key')} must be a non-empty token (letters, digits, -._~+/)`)
  }
  if (typeof plan !== 'string' || !PLAN_NAMES.includes(plan as Plan)) {
    throw new ConfigError(`${field('plan')} must be one of ${PLAN_NAMES.join(', ')}`)
  }
  const defaults = PLANS[plan as Plan]
  const limit = (name: 'perMinute' | 'perDay', value: unknown): number => {
    if (value === undefined) {
      if (defaults === undefined) throw new ConfigError(`${field(name)} is required for enterprise keys`)
      return defaults[name]
    }
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw new ConfigError(`${field(name)} must be a whole number of 1 or more`)
    }
    return value as number
  }
  return { key, plan: plan as Plan, perMinute: limit('perMinute', perMinute), perDay: limit('perDay', perDay) }
}
