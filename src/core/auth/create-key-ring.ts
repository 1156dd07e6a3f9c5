import { constantTimeEqual } from './constant-time-equal.js'
import type { ApiKey } from './key-config.js'

export interface KeyRing {
  /** The configured key equal to `token`, compared in constant time against every key. */
  find(token: string): ApiKey | undefined
  readonly keys: readonly ApiKey[]
}

export function createKeyRing(keys: readonly ApiKey[]): KeyRing {
  return {
    keys,
    find(token) {
      // No early exit: every key is compared, so timing does not tell which prefix matched.
      let found: ApiKey | undefined
      for (const candidate of keys) {
        if (constantTimeEqual(candidate.key, token)) found = candidate
      }
      return found
    },
  }
}
