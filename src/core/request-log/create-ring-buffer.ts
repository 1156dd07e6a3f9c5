/**
 * The last `capacity` items pushed, oldest first: what a request log keeps, in memory bounded
 * however long the process runs. A capacity of 0 keeps nothing.
 */
export function createRingBuffer<T>(capacity: number) {
  const items = new Array<T | undefined>(capacity)
  let next = 0
  let size = 0
  return {
    /** Keeps `item`; returns the oldest one it pushed out, once the buffer is full. */
    push(item: T): T | undefined {
      if (capacity === 0) return item
      const out = size === capacity ? items[next] : undefined
      items[next] = item
      next = (next + 1) % capacity
      size = Math.min(size + 1, capacity)
      return out
    },
    /** The last `limit` items (default all kept), oldest first. */
    last(limit = capacity): T[] {
      const count = Math.min(Math.max(0, limit), size)
      const out: T[] = []
      for (let i = count; i > 0; i--) out.push(items[(next - i + capacity) % capacity]!)
      return out
    },
    clear(): void {
      items.fill(undefined)
      next = 0
      size = 0
    },
  }
}
