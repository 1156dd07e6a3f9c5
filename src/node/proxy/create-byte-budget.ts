/** Creates a bound on bytes held across requests; `reserve(n)` waits for the whole share, in turn (D38). */
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
