/** Finds a key twice in one object of valid JSON, which `JSON.parse` hides (RFC 8259 4). */
export function findDuplicateKey(text: string): string | undefined {
  return findDuplicateKeyAt(text)?.key
}

/** Finds a duplicate key's second offset, for an error that need not quote it. */
export function findDuplicateKeyAt(text: string): { key: string; at: number } | undefined {
  // Null for an array.
  const open: Array<Set<string> | null> = []
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (char === 0x7b /* { */) {
      open.push(new Set())
      expectKey = true
    } else if (char === 0x5b /* [ */) {
      open.push(null)
      expectKey = false
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      open.pop()
    } else if (char === 0x2c /* , */) {
      expectKey = open[open.length - 1] instanceof Set
    } else if (char === 0x22 /* " */) {
      const start = i
      let escaped = false
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i)
        if (inner === 0x5c /* \ */) {
          escaped = true
          i++
        } else if (inner === 0x22) {
          break
        }
      }
      if (expectKey) {
        const literal = text.slice(start, i + 1)
        const key = escaped ? (JSON.parse(literal) as string) : literal.slice(1, -1)
        const keys = open[open.length - 1] as Set<string>
        if (keys.has(key)) return { key, at: start }
        keys.add(key)
        expectKey = false
      }
    }
  }
  return undefined
}
