import type { QuotaChange } from '../state/rate-limit-backend.js'

/** Rejects a `sandbox.quota.set` change the rate limiter could only misread (NaN, negative). */
export function assertQuotaChange(change: QuotaChange): QuotaChange {
  for (const field of ['remaining', 'minuteRemaining', 'dayRemaining'] as const) {
    const value = change[field]
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw new TypeError(`quota.set: ${field} must be a number of 0 or more, got ${String(value)}`)
    }
  }
  const { banned } = change
  if (banned !== undefined && typeof banned !== 'boolean' && !(Number.isFinite(banned) && banned > 0)) {
    throw new TypeError(`quota.set: banned must be true, false or a positive number of seconds, got ${String(banned)}`)
  }
  return change
}
