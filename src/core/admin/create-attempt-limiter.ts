/** What `createAttemptLimiter` decides for one failed attempt. */
export type AttemptDecision = { allowed: true } | { allowed: false; retryAfter: number }

export interface AttemptLimiterOptions {
  /** Failed attempts each client may make per window. */
  limit: number
  windowMs: number
  /** The sandbox clock (D20). */
  now: () => number
  /** Clients remembered at most; past it, windows that have ended are forgotten first. */
  maxClients?: number
}

/**
 * Counts failed attempts per client in fixed windows, to slow guessing of a secret (the admin
 * token, docs/running-for-a-team.md#admin-api). Only failures are counted, so a client with the
 * right secret is never slowed. Memory is bounded: a full table forgets every window that ended,
 * and if that is not enough, the oldest clients.
 *
 * @example
 * const limiter = createAttemptLimiter({ limit: 10, windowMs: 60_000, now: clock.now })
 * if (!limiter.blocked(address).allowed) refuse429()
 * else if (wrong) limiter.fail(address)
 */
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
    // Map order is insertion order: the oldest clients go first.
    for (const client of windows.keys()) {
      if (windows.size < maxClients) break
      windows.delete(client)
    }
  }

  return {
    /** Whether `client` may try again, and if not, in how many whole seconds (at least 1). */
    blocked(client: string): AttemptDecision {
      const window = current(client)
      if (window === undefined || window.failures < limit) return { allowed: true }
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((window.start + windowMs - now()) / 1000)) }
    },
    /** Counts one failed attempt of `client`. */
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
