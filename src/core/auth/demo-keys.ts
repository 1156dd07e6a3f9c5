import type { KeyConfig } from './key-config.js'

/** Lists the keys of a sandbox with none configured. */
export const DEMO_KEYS: readonly KeyConfig[] = Object.freeze([
  { key: 'sandbox-free-key', plan: 'free' },
  { key: 'sandbox-pro-key', plan: 'pro' },
  { key: 'sandbox-business-key', plan: 'business' },
  { key: 'sandbox-enterprise-key', plan: 'enterprise', perMinute: 5_000, perDay: 1_000_000 },
])
