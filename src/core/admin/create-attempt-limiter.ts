export type AttemptDecision = { allowed: true } | { allowed: false; retryAfter: number }

export interface AttemptLimiterOptions {
  limit: number
  windowMs: number
  now: () => number
  /** Bounds the clients remembered. */
  maxClients?: number
}

/** Counts failed attempts per client in fixed windows. */
export function createAttemptLimiter({ limit, windowMs, now, maxClients = 10_000 }: AttemptLimiterOptions) {
  const windows = new Map<string, { start: number; failures: number }>()

  function current(client: string) {
    const at = now()
    const window = windows.get(client)
    if (window === undefined || at - window.start >= windowMs || at < window.start) return undefined
    return window
  }

  function evict(): void {
    const at = now()
    for (const [client, window] of windows)
      if (at - window.start >= windowMs || at < window.start) windows.delete(client)
    // The Map's order: oldest first.
    for (const client of windows.keys()) {
      if (windows.size < maxClients) break
      windows.delete(client)
    }
  }

  return {
    /** Tells whether `client` may try again, or in how many whole seconds. */
    blocked(client: string): AttemptDecision {
      const window = current(client)
      if (window === undefined || window.failures < limit) return { allowed: true }
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((window.start + windowMs - now()) / 1000)) }
    },
    fail(client: string): void {
      const window = current(client)
      if (window !== undefined) {
        window.failures++
        return
      }
      if (windows.size >= maxClients) evict()
      windows.set(client, { start: now(), failures: 1 })
    },
    clear: (): void => windows.clear(),
  }
}

export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>
