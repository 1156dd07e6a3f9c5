import type { ApiKey } from '../auth/key-config.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { Bucket } from '../rate-limit/describe-bucket.js'
import type { OriginKind, SessionName } from '../state/shared-state.js'
import type { PetOrigin } from '../store/create-pet-store.js'

export type { OriginKind }

/** What a world holds, by entry (D34); the compiler asks `WORLD_TABLE` (world-table.ts) to carry each. */
export interface WorldHolds {
  /** Where the world came from: the start-up world, a fork of session `from`, or a capsule. */
  origin: { kind: OriginKind; from?: SessionName }
  /** The clock's instant, from which it runs on; undefined: the time source's own. */
  clock: { clock: number | undefined }
  /** The pets and next id over a shared base; undefined where a shared state keeps them. */
  pets: { pets: (() => PetOrigin) | undefined }
  /** The key buckets (`key:<key>`), as the rate limiter keeps them. */
  quotas: { quotas: ReadonlyMap<string, Bucket> }
  /** The keys bound to the session when made (D46): a capsule's, else none. */
  keys: { boundKeys: readonly ApiKey[] }
  /** The log entries: a world starts with none, so its origin holds nothing of them. */
  log: Record<never, never>
  faults: { faults: ResolvedFaults }
  /** Each key's scenario, and the seed of the scenarios' draws. */
  scenarios: { scenarios: Readonly<Record<string, string>>; seed: number }
}

type Intersect<U> = (U extends unknown ? (part: U) => void : never) extends (whole: infer I) => void ? I : never

/** The world a session starts from and `reset()` returns to: every entry's part of `WorldHolds`. */
export type Origin = Intersect<WorldHolds[keyof WorldHolds]>

/** Holds a world's origin for the world and its state's parts, written once when replaced. */
export interface OriginHolder {
  current: Origin
}
