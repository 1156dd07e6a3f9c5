/** Creates a cache of the `max()` most recently used values, telling `evicted` of each dropped. */
export function createLru<V>(max: () => number, evicted?: (value: V, key: string) => void) {
  const kept = new Map<string, V>()
  let newest: string | undefined
  const put = (key: string, value: V): V => {
    kept.delete(key)
    kept.set(key, value)
    newest = key
    for (const oldest of kept.keys()) {
      if (kept.size <= Math.max(1, max())) break
      const value = kept.get(oldest)!
      kept.delete(oldest)
      evicted?.(value, oldest)
    }
    return value
  }
  return {
    /** Counts a use. */
    use(key: string): V | undefined {
      const found = kept.get(key)
      if (found === undefined || key === newest) return found
      // Moves it to the newest end; the size stays, so nothing is evicted.
      kept.delete(key)
      kept.set(key, found)
      newest = key
      return found
    },
    peek: (key: string): V | undefined => kept.get(key),
    put,
    delete(key: string): boolean {
      if (key === newest) newest = undefined
      return kept.delete(key)
    },
    /** Lists the oldest first. */
    values: () => kept.values(),
    size: (): number => kept.size,
  }
}
