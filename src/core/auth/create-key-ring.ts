import { constantTimeEqual } from './constant-time-equal.js'
import type { ApiKey } from './key-config.js'

export interface KeyRing {
  /** Finds the key equal to `token`, compared in constant time against every key. */
  find(token: string): ApiKey | undefined
  /** The keys in force, in the order they were configured or added. */
  readonly keys: readonly ApiKey[]
  /** Adds a key, or replaces the one with the same `key` in its place. */
  put(apiKey: ApiKey): void
  /** Removes a key; tells whether there was one. */
  remove(key: string): boolean
  /** Puts `keys` in place of all of them, as another process changed them. */
  replace(keys: readonly ApiKey[]): void
}

/** Creates the keys in force, changed at runtime by `sandbox.apiKeys` and the admin API. */
export function createKeyRing(initial: readonly ApiKey[]): KeyRing {
  // Replaces the list, never mutates it, so a request holds a consistent one.
  let keys: readonly ApiKey[] = Object.freeze([...initial])
  return {
    get keys() {
      return keys
    },
    find(token) {
      // Compares every key, no early exit, so timing does not tell which matched.
      let found: ApiKey | undefined
      for (const candidate of keys) {
        if (constantTimeEqual(candidate.key, token)) found = candidate
      }
      return found
    },
    put(apiKey) {
      const index = keys.findIndex((candidate) => candidate.key === apiKey.key)
      keys = Object.freeze(
        index === -1 ? [...keys, apiKey] : keys.map((candidate, i) => (i === index ? apiKey : candidate)),
      )
    },
    replace(next) {
      keys = Object.freeze([...next])
    },
    remove(key) {
      const next = keys.filter((candidate) => candidate.key !== key)
      const removed = next.length !== keys.length
      keys = Object.freeze(next)
      return removed
    },
  }
}

/** Reads the b64token of an `Authorization: Bearer <token>` header (D17); anything else is no credential. */
export function parseBearer(header: string | null): string | undefined {
  if (header === null) return undefined
  const match = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]+=*) *$/.exec(header)
  return match?.[1]
}
