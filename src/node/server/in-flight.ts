/** Links an item into the list. */
interface Link<T> {
  item: T | undefined
  older: Link<T> | undefined
  newer: Link<T> | undefined
}

/**
 * Creates the list of what is under way, which lets go of an item entirely once it leaves: a `Set` that
 * churns keeps the items of its discarded tables alive past young-generation collections, and the
 * answers of a whole load with them (BENCHMARKS.md, "What the collector kept").
 */
export function createInFlight<T>() {
  let newest: Link<T> | undefined

  return {
    /** Adds `item`, returning what removes it. */
    add(item: T): () => void {
      const link: Link<T> = { item, older: newest, newer: undefined }
      if (newest !== undefined) newest.newer = link
      newest = link
      return () => {
        if (link.item === undefined) return
        if (link.older !== undefined) link.older.newer = link.newer
        if (link.newer === undefined) newest = link.older
        else link.newer.older = link.older
        // A removed link that outlived a collection must not hold the newer ones (nepotism).
        link.item = link.older = link.newer = undefined
      }
    },
    forEach(visit: (item: T) => void): void {
      for (let link = newest; link !== undefined; link = link.older) visit(link.item!)
    },
  }
}
