import type { KeyConfig } from './key-config.js'

/** The key changes made at runtime over the configured keys: keys put, configured keys revoked. */
export interface KeyChanges {
  put: KeyConfig[]
  revoked: string[]
}

/** Keeps runtime key changes across restarts (`--state`); a change is in force once `commit` resolves. */
export interface KeyStorage {
  /** The changes of earlier runs, applied over the configured keys on start. */
  restored: KeyChanges
  /** Stores the whole set of changes, or rejects and changes nothing (a 503 for a full disk, D26). */
  commit(changes: KeyChanges): Promise<void>
  /** Says why changes cannot be stored now, for `/readyz`; undefined when they can. */
  notReady?(): string | undefined
  /** Returns another process's changes once each time they change; undefined when nothing is new. */
  news?(): KeyChanges | undefined
}
