import { constantTimeEqual } from './constant-time-equal.js'
import type { ApiKey } from './key-config.js'

export interface KeyRing {
  /** Finds `token`'s key in constant time. */
  find(token: string): ApiKey | undefined
  readonly keys: readonly ApiKey[]
  put(apiKey: ApiKey): void
  remove(key: string): boolean
  replace(keys: readonly ApiKey[]): void
}

export function createKeyRing(initial: readonly ApiKey[]): KeyRing {
  // Replaced, never mutated: a request holds a steady list.
  let keys: readonly ApiKey[] = Object.freeze([...initial])
  return {
    get keys() {
      return keys
    },
    find(token) {
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

/** Reads the token of a Bearer header (D17). */
export function parseBearer(header: string | null): string | undefined {
  if (header === null) return undefined
  const match = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]+=*) *$/.exec(header)
  return match?.[1]
}
