import type { KeyConfig } from './key-config.js'

/**
 * The keys changed at runtime, relative to the configured ones: keys added or whose plan changed,
 * and configured keys revoked. What a key storage keeps.
 */
export interface KeyChanges {
  put: KeyConfig[]
  revoked: string[]
}

/**
 * Where runtime key changes outlive the process (the CLI's `--state`, beside the pets). A change
 * is in force only once `commit` has resolved.
 */
export interface KeyStorage {
  /** The changes of earlier runs, applied over the configured keys on start. */
  restored: KeyChanges
  /** Stores the whole set of changes as it now stands; rejects (an HttpError 503 for a full disk, D26) and changes nothing when it cannot. */
  commit(changes: KeyChanges): Promise<void>
  /** Why changes cannot be stored right now, for `/readyz`; undefined when they can. */
  notReady?(): string | undefined
  /**
   * With state several processes share: the changes as another process last stored them, once
   * each time they change, so this process follows; undefined when nothing is new.
   */
  news?(): KeyChanges | undefined
}
