import type { KeyConfig } from './key-config.js'

export interface KeyChanges {
  put: KeyConfig[]
  revoked: string[]
}

/** Keeps runtime key changes across restarts (`--state`). */
export interface KeyStorage {
  restored: KeyChanges
  /** Stores every change, or rejects and changes nothing (D26). */
  commit(changes: KeyChanges): Promise<void>
  notReady?(): string | undefined
  /** Returns another process's changes once, when they change. */
  news?(): KeyChanges | undefined
}
