import type { ApiKey } from './key-config.js'

// Auth may not import state/maybe-promise.ts.
type MaybePromise<T> = T | Promise<T>

/** Puts a request carrying it in its session (D46). */
export interface BoundKey extends ApiKey {
  readonly session: string
}

export interface BoundKeys {
  known(token: string): BoundKey | undefined
  /** Asks the shared state; `known` answers it after. */
  ask?(token: string): Promise<BoundKey | undefined>
  of(session: string): MaybePromise<readonly BoundKey[]>
  /** Feeds the masker (D35). */
  tokens(): readonly string[]
  boundElsewhere(session: string, keys: readonly string[]): MaybePromise<{ key: string; session: string } | undefined>
  /** Binds keys; call `boundElsewhere` first. */
  bind(session: string, keys: readonly ApiKey[]): MaybePromise<void>
  release(session: string): void
}

/** Makes `sbk_` and 192 random bits in base64url (D27). */
export function newBoundToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return `sbk_${btoa(text).replaceAll('+', '-').replaceAll('/', '_')}`
}

export function createBoundKeys(): BoundKeys {
  const byToken = new Map<string, BoundKey>()
  const bySession = new Map<string, BoundKey[]>()
  // Remade per change: every masking reads it.
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
