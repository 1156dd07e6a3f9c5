/** Holds a JSON body made in pieces, never one string (D36). */
export class JsonPieces {
  constructor(readonly pieces: () => Iterable<string>) {}
}

// Bounds a piece below V8's large objects (BENCHMARKS.md, "Memory of the request log").
const PIECE = 8 * 1024

/** Writes `shell`'s JSON in pieces, `items` filling its last member's empty array. */
export function* jsonPieces(shell: unknown, items: Iterable<unknown>): Generator<string> {
  const empty = JSON.stringify(shell)
  const at = empty.lastIndexOf('[]')
  yield empty.slice(0, at + 1)
  let first = true
  for (const item of items) {
    if (!first) yield ','
    yield* valuePieces(item)
    first = false
  }
  yield empty.slice(at + 1)
}

/** Writes `JSON.stringify(value)` of plain data in pieces. */
export function* valuePieces(value: unknown): Generator<string> {
  if (typeof value === 'string') {
    if (value.length <= PIECE) {
      yield JSON.stringify(value)
      return
    }
    yield '"'
    for (let from = 0; from < value.length; ) {
      let to = Math.min(from + PIECE, value.length)
      // Keeps a surrogate pair whole.
      if (to < value.length && /[\uD800-\uDBFF]/.test(value[to - 1]!)) to--
      yield JSON.stringify(value.slice(from, to)).slice(1, -1)
      from = to
    }
    yield '"'
    return
  }
  if (Array.isArray(value)) {
    yield '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ','
      yield* value[i] === undefined ? ['null'] : valuePieces(value[i])
    }
    yield ']'
    return
  }
  if (typeof value === 'object' && value !== null) {
    yield '{'
    let first = true
    for (const [name, member] of Object.entries(value)) {
      if (member === undefined) continue
      yield `${first ? '' : ','}${JSON.stringify(name)}:`
      yield* valuePieces(member)
      first = false
    }
    yield '}'
    return
  }
  yield JSON.stringify(value) ?? 'null'
}
