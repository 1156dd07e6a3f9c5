/**
 * The first key that appears twice in one object of a JSON text, or undefined. `JSON.parse` keeps
 * the last of duplicate keys silently, so `{"name":"","name":"Rex"}` would pass validation as
 * whichever value wins; the sandbox refuses such a body as ambiguous instead (RFC 8259 4).
 * Iterative, so a 100000-level nesting costs no stack. Expects text `JSON.parse` accepted.
 *
 * @example
 * findDuplicateKey('{"a":1,"b":{"a":2}}') // undefined
 * findDuplicateKey('{"a":1,"\\u0061":2}')  // 'a'
 */
export function findDuplicateKey(text: string): string | undefined {
  return findDuplicateKeyAt(text)?.key
}

/**
 * {@link findDuplicateKey}, with the offset of the key's second appearance: a file's error says
 * where, without quoting a key that may be a secret.
 *
 * @example
 * findDuplicateKeyAt('{"a":1,"a":2}') // { key: 'a', at: 7 }
 */
export function findDuplicateKeyAt(text: string): { key: string; at: number } | undefined {
  // One entry per open container: the keys seen so far for an object, null for an array.
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
