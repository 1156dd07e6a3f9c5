import type { KeyConfig } from './key-config.js'

/**
 * The keys a sandbox has when none are configured: one per plan, listed in docs/getting-started.md so a
 * newcomer can call the API at once. They are sandbox-only values, never real credentials.
 *
 * @example
 * createSandbox({ keys: [...DEMO_KEYS, { key: 'team-a-key', plan: 'pro' }] })
 */
export const DEMO_KEYS: readonly KeyConfig[] = Object.freeze([
  { key: 'sandbox-free-key', plan: 'free' },
  { key: 'sandbox-pro-key', plan: 'pro' },
  { key: 'sandbox-business-key', plan: 'business' },
  { key: 'sandbox-enterprise-key', plan: 'enterprise', perMinute: 5_000, perDay: 1_000_000 },
])
