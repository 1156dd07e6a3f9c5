import type { Limits, Plan } from './plans.js'

/** One API key as configured (the `keys` option, or an entry of a keys file). */
export interface KeyConfig {
  key: string
  plan: Plan
  /** Overrides the plan's per-minute limit; required for `enterprise`. */
  perMinute?: number
  /** Overrides the plan's per-day limit; required for `enterprise`. */
  perDay?: number
}

/** A key after validation, with the limits that apply to it. */
export interface ApiKey extends Limits {
  key: string
  plan: Plan
}
