import type { KeyConfig } from './key-config.js'

export interface KeyChanges {
  put: KeyConfig[]
  revoked: string[]
}

/** Keeps runtime key changes across restarts (`--state`). */
export interface KeyStorage {
  restored: KeyChanges
  /** Stores all changes or none (D26). */
  commit(changes: KeyChanges): Promise<void>
  notReady?(): string | undefined
  news?(): KeyChanges | undefined
}
