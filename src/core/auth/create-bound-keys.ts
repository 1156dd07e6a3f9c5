import type { ApiKey } from './key-config.js'

// Copied from state/maybe-promise.ts, which this folder does not import.
type MaybePromise<T> = T | Promise<T>

/**
 * A key bound to a named session (docs/decisions.md#d46): a request carrying it is in that session.
 *
 * @example
 * const bound: BoundKey = await sandbox.session('worker-1').keys.add({ plan: 'pro' })
 * // { key: 'sbk_…', plan: 'pro', perMinute: 300, perDay: 10000, session: 'worker-1' }
 */
export interface BoundKey extends ApiKey {
  readonly session: string
}

/** Holds the keys bound to sessions, in memory (`createBoundKeys`) or in a shared state (then lookups are promises). */
export interface BoundKeys {
  /** Returns the bound key `token` as this process knows it, without asking (what admission reads). */
  known(token: string): BoundKey | undefined
  /** Asks the shared state for a token this process does not know; `known` answers it from then on. */
  ask?(token: string): Promise<BoundKey | undefined>
  /** Returns `session`'s bound keys, in the order they were made. */
  of(session: string): MaybePromise<readonly BoundKey[]>
  /** Returns every bound key this process knows, masked wherever keys are (D35). */
  tokens(): readonly string[]
  /** Returns the first of `keys` bound to a session other than `session`, with that session. */
  boundElsewhere(session: string, keys: readonly string[]): MaybePromise<{ key: string; session: string } | undefined>
  /** Binds `keys` to `session`, after `boundElsewhere` said none is bound elsewhere. */
  bind(session: string, keys: readonly ApiKey[]): MaybePromise<void>
  /** Forgets `session`'s keys once it is dropped, deleted or replaced. */
  release(session: string): void
}

/** Makes a key to bind: `sbk_` and 192 random bits in base64url, a bearer token (D27). */
export function newBoundToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return `sbk_${btoa(text).replaceAll('+', '-').replaceAll('/', '_')}`
}

/** Creates the bound keys of a sandbox of its own, in its memory. */
export function createBoundKeys(): BoundKeys {
  const byToken = new Map<string, BoundKey>()
  const bySession = new Map<string, BoundKey[]>()
  // Remade on each change: every masking reads it.
  let tokens: readonly string[] = []
  const changed = () => {
    tokens = [...byToken.keys()]
  }
  return {
    known: (token) => byToken.get(token),
    of: (session) => bySession.get(session) ?? [],
    tokens: () => tokens,
    boundElsewhere(session, keys) {
      for (const key of keys) {
        const found = byToken.get(key)
        if (found !== undefined && found.session !== session) return { key, session: found.session }
      }
      return undefined
    },
    bind(session, keys) {
      const held = bySession.get(session) ?? []
      for (const apiKey of keys) {
        const bound = { ...apiKey, session }
        byToken.set(apiKey.key, bound)
        held.push(bound)
      }
      bySession.set(session, held)
      changed()
    },
    release(session) {
      const held = bySession.get(session)
      if (held === undefined) return
      for (const { key } of held) byToken.delete(key)
      bySession.delete(session)
      changed()
    },
  }
}
