import type { Limits, Plan } from './plans.js'

/**
 * An API key as configured (the `keys` option, an entry of a keys file).
 *
 * @example
 * const keys: KeyConfig[] = [
 *   { key: 'team-a-key', plan: 'pro' },
 *   { key: 'big-customer', plan: 'enterprise', perMinute: 2000, perDay: 500000 },
 * ]
 */
export interface KeyConfig {
  key: string
  plan: Plan
  /** Overrides the plan's per-minute limit; required for `enterprise`. */
  perMinute?: number
  /** Overrides the plan's per-day limit; required for `enterprise`. */
  perDay?: number
}

/**
 * A key after validation, with the limits that apply to it (`sandbox.keys`).
 *
 * @example
 * const free: ApiKey | undefined = sandbox.keys.find((key) => key.plan === 'free')
 */
export interface ApiKey extends Limits {
  key: string
  plan: Plan
}
