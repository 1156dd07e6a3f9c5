import type { ApiKey } from './key-config.js'

// A value now or later (state/maybe-promise.ts's, which this folder does not import).
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

/**
 * The keys bound to sessions, by token: in a sandbox's memory (`createBoundKeys`), or in a shared
 * state every process follows, where lookups are promises and this process keeps what it met.
 */
export interface BoundKeys {
  /** The bound key equal to `token` as this process knows it, without asking: what a request's admission reads. */
  known(token: string): BoundKey | undefined
  /**
   * Asks the shared state of a token this process does not know (no key in force either): the key
   * bound elsewhere, which `known` answers from then on. Undefined in memory, where `known` knows all.
   */
  ask?(token: string): Promise<BoundKey | undefined>
  /** Session `session`'s bound keys, in the order they were made. */
  of(session: string): MaybePromise<readonly BoundKey[]>
  /** Every bound key this process knows, masked wherever keys are (D35). */
  tokens(): readonly string[]
  /** The session other than `session` one of `keys` is bound to, with that key; undefined when none is. */
  boundElsewhere(session: string, keys: readonly string[]): MaybePromise<{ key: string; session: string } | undefined>
  /** Binds `keys` to `session`, after `boundElsewhere` said none is bound elsewhere. */
  bind(session: string, keys: readonly ApiKey[]): MaybePromise<void>
  /** Forgets session `session`'s keys: it left (dropped, deleted, replaced), and its keys with it. */
  release(session: string): void
}

/** A new key to bind: `sbk_` and 32 characters of base64url (192 random bits), a bearer token (D27). */
export function newBoundToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return `sbk_${btoa(text).replaceAll('+', '-').replaceAll('/', '_')}`
}

/**
 * The bound keys of a sandbox of its own, in its memory: a map by token, and each session's in
 * the order they were made.
 */
export function createBoundKeys(): BoundKeys {
  const byToken = new Map<string, BoundKey>()
  const bySession = new Map<string, BoundKey[]>()
  // Remade on each change, read by every masking.
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
