import type { ApiKey } from '../auth/key-config.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { Bucket } from '../rate-limit/describe-bucket.js'
import type { OriginKind } from '../state/shared-state.js'
import type { PetOrigin } from '../store/create-pet-store.js'

export type { OriginKind }

/**
 * What a world holds (docs/decisions.md#d34), by entry: the part of its origin each entry keeps.
 * An entry added here fails the typecheck at `WORLD_TABLE` (world-table.ts) until every carrier carries it
 * (test/unit/world-table.test.ts shows it).
 */
export interface WorldHolds {
  /** Where the world came from: the start-up world, a fork of session `from`, or a capsule. */
  origin: { kind: OriginKind; from?: string }
  /** The clock's instant, from which it runs on; undefined: the time source's own. */
  clock: { clock: number | undefined }
  /** The pets and next id, over a base shared by every world that starts from it; undefined where a shared state keeps them. */
  pets: { pets: (() => PetOrigin) | undefined }
  /** The key buckets (`key:<key>`), as the rate limiter keeps them. */
  quotas: { quotas: ReadonlyMap<string, Bucket> }
  /** The keys bound to the session when it is made (D46): a capsule's; none for the start-up world or a fork. */
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

/** Holds a world's origin, read by the world and by its state's parts; a replaced or adopted origin is written here once. */
export interface OriginHolder {
  current: Origin
}
