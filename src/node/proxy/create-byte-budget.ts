/**
 * A bound on bytes held at once across requests: `reserve(n)` resolves with the release once `n`
 * bytes fit under `max`, reservations served first come, first served. A request waits for its
 * whole share before it holds anything, so no two requests each hold part of what they need and
 * wait for the other (D38).
 *
 * @example
 * const budget = createByteBudget(64 * 1024 * 1024)
 * const release = await budget.reserve(1024 * 1024)
 * // ...hold up to 1 MiB...
 * release()
 */
export function createByteBudget(max: number) {
  let held = 0
  const waiting: Array<{ bytes: number; admit: () => void }> = []
  const admitWaiting = () => {
    while (waiting.length > 0 && held + waiting[0]!.bytes <= max) {
      const next = waiting.shift()!
      held += next.bytes
      next.admit()
    }
  }
  const releaseOf = (bytes: number) => {
    let released = false
    return () => {
      if (released) return
      released = true
      held -= bytes
      admitWaiting()
    }
  }
  return {
    reserve(wanted: number): Promise<() => void> {
      const bytes = Math.min(Math.max(0, wanted), max)
      if (waiting.length === 0 && held + bytes <= max) {
        held += bytes
        return Promise.resolve(releaseOf(bytes))
      }
      return new Promise((resolve) => waiting.push({ bytes, admit: () => resolve(releaseOf(bytes)) }))
    },
    /** The bytes reserved now. */
    held: () => held,
  }
}

export type ByteBudget = ReturnType<typeof createByteBudget>
