/** Lists each plan's limits (spec section 8); enterprise's are per key. */
export const PLANS = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: undefined,
} as const

/** Names a plan; check-names checks the docs. */
export type Plan = keyof typeof PLANS

export const PLAN_NAMES = Object.keys(PLANS) as Plan[]

export interface Limits {
  perMinute: number
  perDay: number
}
