import type { Limits, Plan } from './plans.js'

/** Configures an API key: a `keys` option or keys file entry. */
export interface KeyConfig {
  key: string
  plan: Plan
  /** Overrides the plan's limit; required for `enterprise`. */
  perMinute?: number
  perDay?: number
}

/** Holds a checked key (`sandbox.keys`). */
export interface ApiKey extends Limits {
  key: string
  plan: Plan
}
