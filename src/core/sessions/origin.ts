import type { ApiKey } from '../auth/key-config.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { Bucket } from '../rate-limit/describe-bucket.js'
import type { OriginKind, SessionName } from '../state/shared-state.js'
import type { PetOrigin } from '../store/create-pet-store.js'

export type { OriginKind }

/** Lists what a world holds (D34); `WORLD_TABLE` carries each. */
export interface WorldHolds {
  origin: { kind: OriginKind; from?: SessionName }
  /** Starts the clock there; undefined: the time source. */
  clock: { clock: number | undefined }
  /** Returns the pets over a shared base; undefined on a shared state. */
  pets: { pets: (() => PetOrigin) | undefined }
  quotas: { quotas: ReadonlyMap<string, Bucket> }
  keys: { boundKeys: readonly ApiKey[] }
  /** Holds nothing: a world starts with no log entries. */
  log: Record<never, never>
  faults: { faults: ResolvedFaults }
  scenarios: { scenarios: Readonly<Record<string, string>>; seed: number }
}

type Intersect<U> = (U extends unknown ? (part: U) => void : never) extends (whole: infer I) => void ? I : never

/** Holds what a session starts from and resets to. */
export type Origin = Intersect<WorldHolds[keyof WorldHolds]>

export interface OriginHolder {
  current: Origin
}
