// Matches what `Headers` trims from a value (Fetch standard, "normalize").
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g

function normalized(value: string): string {
  const last = value.length - 1
  return last >= 0 && (value.charCodeAt(0) <= 0x20 || value.charCodeAt(last) <= 0x20)
    ? value.replace(EDGE_WHITESPACE, '')
    : value
}

/** Returns headers as node:http writes them, Set-Cookie one value each; a `WireHeaders`'s in the order set. */
export function writtenHeaders(headers: Headers): Record<string, string | string[]> {
  if (headers instanceof WireHeaders) return headers.written()
  const written: Record<string, string | string[]> = {}
  headers.forEach((value, name) => {
    written[name] = value
  })
  const cookies = headers.getSetCookie()
  if (cookies.length > 0) written['set-cookie'] = cookies
  return written
}

/** Keeps headers as `Headers` does, without undici's checks (BENCHMARKS.md, "Closer to the wire"). */
export class WireHeaders implements Headers {
  #map: Map<string, string> | undefined
  #cookies: string[] = []
  #raw: readonly string[] | undefined
  #override: readonly [string, string] | undefined

  /** Reads node's raw pairs on first use, `override` in place of the client's. */
  static fromRaw(raw: readonly string[], override: readonly [string, string]): WireHeaders {
    const headers = new WireHeaders()
    headers.#raw = raw
    headers.#override = override
    return headers
  }

  #values(): Map<string, string> {
    if (this.#map !== undefined) return this.#map
    const map = new Map<string, string>()
    this.#map = map
    const raw = this.#raw
    if (raw === undefined) return map
    const [overridden, value] = this.#override!
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase()
      if (name !== overridden) this.#add(map, name, raw[i + 1]!)
    }
    map.set(overridden, value)
    this.#raw = undefined
    return map
  }

  #add(map: Map<string, string>, name: string, value: string): void {
    if (name === 'set-cookie') this.#cookies.push(value)
    const before = map.get(name)
    map.set(name, before === undefined ? value : `${before}, ${value}`)
  }

  append(name: string, value: string): void {
    this.#add(this.#values(), name.toLowerCase(), normalized(value))
  }

  delete(name: string): void {
    const lower = name.toLowerCase()
    if (lower === 'set-cookie') this.#cookies = []
    this.#values().delete(lower)
  }

  get(name: string): string | null {
    return this.#values().get(name.toLowerCase()) ?? null
  }

  getSetCookie(): string[] {
    this.#values()
    return [...this.#cookies]
  }

  has(name: string): boolean {
    return this.#values().has(name.toLowerCase())
  }

  set(name: string, value: string): void {
    const lower = name.toLowerCase()
    const clean = normalized(value)
    if (lower === 'set-cookie') this.#cookies = [clean]
    this.#values().set(lower, clean)
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    // No generator: the adapter reads every answer's headers through here.
    const map = this.#values()
    const names = [...map.keys()].sort()
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      if (name !== 'set-cookie') callback.call(thisArg, map.get(name)!, name, this)
      else for (const cookie of [...this.#cookies]) callback.call(thisArg, cookie, name, this)
    }
  }

  /** Returns the headers as node:http writes them, in the order set: the wire needs no sorting. */
  written(): Record<string, string | string[]> {
    const written: Record<string, string | string[]> = {}
    this.#values().forEach((value, name) => {
      written[name] = name === 'set-cookie' ? [...this.#cookies] : value
    })
    return written
  }

  *#pairs(): Generator<[string, string], undefined, unknown> {
    const map = this.#values()
    for (const name of [...map.keys()].sort()) {
      if (name === 'set-cookie') for (const cookie of this.#cookies) yield [name, cookie]
      else yield [name, map.get(name)!]
    }
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#pairs() as unknown as HeadersIterator<[string, string]>
  }

  keys(): HeadersIterator<string> {
    return (function* (pairs) {
      for (const [name] of pairs) yield name
    })(this.#pairs()) as unknown as HeadersIterator<string>
  }

  values(): HeadersIterator<string> {
    return (function* (pairs) {
      for (const [, value] of pairs) yield value
    })(this.#pairs()) as unknown as HeadersIterator<string>
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries()
  }
}
