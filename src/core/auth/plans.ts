/**
 * Rate limits per plan (spec section 8). Enterprise limits are agreed per key.
 *
 * @example
 * PLANS.free.perMinute   // 60
 */
export const PLANS = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: undefined,
} as const

/** A plan name: a key of `PLANS`, which check-names holds the documents' `Plan` enums to. */
export type Plan = keyof typeof PLANS

export const PLAN_NAMES = Object.keys(PLANS) as Plan[]

/** A key's two limits. */
export interface Limits {
  perMinute: number
  perDay: number
}
