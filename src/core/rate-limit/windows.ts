/** The two fixed windows' lengths in ms (D12), which the Redis script is given (redis-scripts.ts). */
export const WINDOW_MS = { minute: 60_000, day: 86_400_000 } as const

export type WindowName = keyof typeof WINDOW_MS

/**
 * Gives the start of the window holding `t`, which holds its start and not its end (D13).
 *
 * @example
 * windowStart(Date.UTC(2030, 0, 1, 10, 15, 30), 'minute') === Date.UTC(2030, 0, 1, 10, 15)
 */
export function windowStart(t: number, window: WindowName): number {
  return t - (t % WINDOW_MS[window])
}

/** Gives the end of the window that starts at `start` (epoch ms). */
export function windowEnd(start: number, window: WindowName): number {
  return start + WINDOW_MS[window]
}

/**
 * Gives `X-RateLimit-Reset` of the window holding `t`: its end, in Unix seconds (D13).
 *
 * @example
 * resetOf(Date.UTC(2030, 0, 1, 10, 15), 'minute') === Date.UTC(2030, 0, 1, 10, 16) / 1000
 */
export function resetOf(t: number, window: WindowName): number {
  return windowEnd(windowStart(t, window), window) / 1000
}
