import type { ResolvedFaults } from '../faults/fault-config.js'
import type { Bucket } from '../state/rate-limit-backend.js'
import type { OriginKind } from '../state/shared-state.js'
import type { PetOrigin } from '../store/create-pet-store.js'

export type { OriginKind }

/**
 * The world a session starts from and `reset()` returns to (docs/decisions.md#d34): the start-up
 * world (the seeded or given pets, or a `--from` capsule; the `--now` instant; the start-up faults
 * and scenarios; no quota used), the source session's world at the moment of a fork, or a capsule.
 */
export interface Origin {
  kind: OriginKind
  /** The session a fork was made from. */
  from?: string
  /** The pets, over a base shared by every world that starts from it; undefined where a shared state keeps them. */
  pets: (() => PetOrigin) | undefined
  /** The clock's instant, from which it runs on; undefined: the time source's own. */
  clock: number | undefined
  faults: ResolvedFaults
  /** Each key's scenario. */
  scenarios: Readonly<Record<string, string>>
  /** The key buckets (`key:<key>`), as the rate limiter keeps them. */
  quotas: ReadonlyMap<string, Bucket>
  /** The seed of the scenarios' draws. */
  seed: number
}
