/** Links an item into the ring and its key's list; `item` is undefined once unlinked. */
interface Link<T, K> {
  item: T | undefined
  key: K
  older: Link<T, K> | undefined
  newer: Link<T, K> | undefined
  olderOfKey: Link<T, K> | undefined
  newerOfKey: Link<T, K> | undefined
}

interface Chain<T, K> {
  oldest: Link<T, K>
  newest: Link<T, K>
  size: number
}

/** Creates a ring of the last `capacity` items, by key. */
export function createKeyedRing<T, K>(capacity: number, keyOf: (item: T) => K) {
  let oldest: Link<T, K> | undefined
  let newest: Link<T, K> | undefined
  let size = 0
  const chains = new Map<K, Chain<T, K>>()

  /** Unlinks `link`, returning its item. */
  const unlink = (link: Link<T, K>): T => {
    const item = link.item!
    if (link.older === undefined) oldest = link.newer
    else link.older.newer = link.newer
    if (link.newer === undefined) newest = link.older
    else link.newer.older = link.older
    size--
    const chain = chains.get(link.key)!
    if (--chain.size === 0) chains.delete(link.key)
    else {
      if (link.olderOfKey === undefined) chain.oldest = link.newerOfKey!
      else link.olderOfKey.newerOfKey = link.newerOfKey
      if (link.newerOfKey === undefined) chain.newest = link.olderOfKey!
      else link.newerOfKey.olderOfKey = link.olderOfKey
    }
    // An unlinked link that outlived a young collection must hold neither its item nor the newer links
    // (BENCHMARKS.md, "What the collector kept").
    link.item = link.older = link.newer = link.olderOfKey = link.newerOfKey = undefined
    return item
  }
  const walk = (from: Link<T, K> | undefined, step: (link: Link<T, K>) => Link<T, K> | undefined, limit: number) => {
    const out: T[] = []
    for (let link = from; link !== undefined && out.length < limit; link = step(link)) out.push(link.item!)
    return out.reverse()
  }

  return {
    /** Keeps `item`, returning any it pushed out. */
    push(item: T): T | undefined {
      if (capacity === 0) return item
      const key = keyOf(item)
      const chain = chains.get(key)
      const link: Link<T, K> = {
        item,
        key,
        older: newest,
        newer: undefined,
        olderOfKey: chain?.newest,
        newerOfKey: undefined,
      }
      if (newest === undefined) oldest = link
      else newest.newer = link
      newest = link
      size++
      if (chain === undefined) chains.set(key, { oldest: link, newest: link, size: 1 })
      else {
        chain.newest.newerOfKey = link
        chain.newest = link
        chain.size++
      }
      if (size <= capacity) return undefined
      return unlink(oldest!)
    },
    last: (limit = capacity): T[] => walk(newest, (link) => link.older, limit),
    lastOf: (key: K, limit = capacity): T[] => walk(chains.get(key)?.newest, (link) => link.olderOfKey, limit),
    /** Counts the items, of `key` alone when given. */
    count: (...key: [] | [K]): number => (key.length === 0 ? size : (chains.get(key[0] as K)?.size ?? 0)),
    find(matches: (item: T) => boolean, ...key: [] | [K]): T | undefined {
      const of = key.length > 0
      const from = of ? chains.get(key[0] as K)?.newest : newest
      for (let link = from; link !== undefined; link = of ? link.olderOfKey : link.older)
        if (matches(link.item!)) return link.item
      return undefined
    },
    /** Forgets `key`'s items, returning them. */
    remove(key: K): T[] {
      const chain = chains.get(key)
      if (chain === undefined) return []
      const removed: T[] = []
      for (let link: Link<T, K> | undefined = chain.oldest; link !== undefined; ) {
        const next: Link<T, K> | undefined = link.newerOfKey
        removed.push(unlink(link))
        link = next
      }
      return removed
    },
    clear(): void {
      oldest = undefined
      newest = undefined
      size = 0
      chains.clear()
    },
  }
}
