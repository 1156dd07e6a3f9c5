/** Holds the windows' lengths (D12), which the Redis script is given. */
export const WINDOW_MS = { minute: 60_000, day: 86_400_000 } as const

export type WindowName = keyof typeof WINDOW_MS

/** Gives the start of the window holding `t`, its end excluded (D13). */
export function windowStart(t: number, window: WindowName): number {
  return t - (t % WINDOW_MS[window])
}

export function windowEnd(start: number, window: WindowName): number {
  return start + WINDOW_MS[window]
}

/** Gives `X-RateLimit-Reset`: the holding window's end, in Unix seconds (D13). */
export function resetOf(t: number, window: WindowName): number {
  return windowEnd(windowStart(t, window), window) / 1000
}
