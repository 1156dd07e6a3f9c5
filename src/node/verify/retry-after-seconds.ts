/**
 * The wait a Retry-After asks for, in whole seconds: delta-seconds or an HTTP-date (RFC 9110
 * 10.2.3), so verify waits politely whichever form a backend sends; undefined when it is neither.
 */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const date = Date.parse(value)
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : undefined
}
