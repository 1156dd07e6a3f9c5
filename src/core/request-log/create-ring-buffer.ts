/** Creates a ring of the last `capacity` items. */
export function createRingBuffer<T>(capacity: number) {
  const items = new Array<T | undefined>(capacity)
  let next = 0
  let size = 0

  function last(limit = capacity): T[] {
    const count = Math.min(Math.max(0, limit), size)
    const out: T[] = []
    for (let i = count; i > 0; i--) out.push(items[(next - i + capacity) % capacity]!)
    return out
  }

  return {
    /** Keeps `item`, returning any it pushed out. */
    push(item: T): T | undefined {
      if (capacity === 0) return item
      const out = size === capacity ? items[next] : undefined
      items[next] = item
      next = (next + 1) % capacity
      size = Math.min(size + 1, capacity)
      return out
    },
    last,
    remove(matches: (item: T) => boolean): void {
      const kept = last().filter((item) => !matches(item))
      items.fill(undefined)
      for (const [index, item] of kept.entries()) items[index] = item
      size = kept.length
      next = capacity === 0 ? 0 : size % capacity
    },
    clear(): void {
      items.fill(undefined)
      next = 0
      size = 0
    },
  }
}
