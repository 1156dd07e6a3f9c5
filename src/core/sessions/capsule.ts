import type { KeyConfig } from '../auth/key-config.js'
import { maskKey } from '../auth/mask-key.js'
import type { Limits } from '../auth/plans.js'
import { limitsOf } from '../auth/resolve-keys.js'
import { isClockInstant } from '../clock/create-clock.js'
import { checkInput } from '../contract/check-input.js'
import { ConfigError } from '../errors/config-error.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { Bucket } from '../rate-limit/describe-bucket.js'
import { windowStart } from '../rate-limit/windows.js'
import type { Har } from '../request-log/to-har.js'
import type { ScenarioDefinition } from '../scenarios/scenario-config.js'
import type { QuotaStanding } from '../state/rate-limit-backend.js'
import type { Pet } from '../store/pet.js'

export const CAPSULE_KIND = 'petstore-sandbox/capsule'
export const CAPSULE_VERSION = 1

/**
 * Holds a session's world as a versioned document (D34).
 *
 * @example
 * const replay = createSandbox({ from: await sandbox.session('bug-123').capsule() })
 */
export interface Capsule {
  kind: typeof CAPSULE_KIND
  version: typeof CAPSULE_VERSION
  session: string
  made: string
  /** Starts a restored session's clock (ISO 8601, ms). */
  clock: string
  seed: number
  pets: Pet[]
  nextId: number
  faults: ResolvedFaults
  scenarios: Record<string, string>
  customScenarios?: Record<string, ScenarioDefinition>
  /** Counts each key's buckets at `clock`. */
  quotas: Record<string, CapsuleQuota>
  keys: KeyConfig[]
  boundKeys?: KeyConfig[]
  /** Records the session's exchanges; restoring ignores them. */
  har?: Har
}

export interface CapsuleQuota {
  minuteUsed: number
  dayUsed: number
  refused: number
  bannedUntil?: string
}

export interface CapsuleParts {
  session: string
  made: number
  clock: number
  seed: number
  pets: Pet[]
  nextId: number
  faults: ResolvedFaults
  scenarios: Readonly<Record<string, string>>
  custom: Readonly<Record<string, ScenarioDefinition>> | undefined
  keys: ReadonlyArray<{ config: KeyConfig; quota: QuotaStanding }>
  boundKeys: ReadonlyArray<{ config: KeyConfig; quota: QuotaStanding }>
  har: Har
}

export function makeCapsule(parts: CapsuleParts): Capsule {
  const quotas: Record<string, CapsuleQuota> = {}
  for (const { config, quota } of [...parts.keys, ...parts.boundKeys]) {
    if (quota.minute.used === 0 && quota.day.used === 0 && quota.refused === 0 && !quota.banned) continue
    quotas[config.key] = {
      minuteUsed: quota.minute.used,
      dayUsed: quota.day.used,
      refused: quota.refused,
      ...(quota.bannedUntil === undefined ? {} : { bannedUntil: new Date(quota.bannedUntil).toISOString() }),
    }
  }
  const named = new Set([...Object.keys(quotas), ...Object.keys(parts.scenarios)])
  const custom = Object.fromEntries(
    Object.values(parts.scenarios).flatMap((name) =>
      parts.custom?.[name] === undefined ? [] : [[name, parts.custom[name]]],
    ),
  )
  return {
    kind: CAPSULE_KIND,
    version: CAPSULE_VERSION,
    session: parts.session,
    made: new Date(parts.made).toISOString(),
    clock: new Date(parts.clock).toISOString(),
    seed: parts.seed,
    pets: parts.pets.map((pet) => ({ ...pet })),
    nextId: parts.nextId,
    faults: parts.faults,
    scenarios: { ...parts.scenarios },
    ...(Object.keys(custom).length === 0 ? {} : { customScenarios: custom }),
    quotas,
    keys: parts.keys.filter(({ config }) => named.has(config.key)).map(({ config }) => ({ ...config })),
    ...(parts.boundKeys.length === 0 ? {} : { boundKeys: parts.boundKeys.map(({ config }) => ({ ...config })) }),
    har: parts.har,
  }
}

/** Checks a capsule against `Capsule` and what no schema says. */
export function readCapsule(value: unknown, where = 'capsule'): Capsule {
  const version = typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined
  if (typeof version === 'number' && version > CAPSULE_VERSION) {
    throw new ConfigError(
      `${where}.version ${version} is newer than this sandbox reads (${CAPSULE_VERSION}): upgrade petstore-sandbox`,
    )
  }
  const capsule = checkInput<Capsule>('Capsule', value, where)
  let last = 0
  for (const [index, pet] of capsule.pets.entries()) {
    if (pet.id <= last)
      throw new ConfigError(`${where}.pets[${index}].id must be above ${last}, the id before it (pets ascend by id)`)
    last = pet.id
  }
  if (capsule.nextId <= last) throw new ConfigError(`${where}.nextId must be above ${last}, the highest pet id`)
  for (const field of ['made', 'clock'] as const) {
    if (!isClockInstant(capsule[field]))
      throw new ConfigError(
        `${where}.${field} must be an RFC 3339 date-time between 1970-01-01T00:00:00Z and ` +
          '9999-12-31T23:59:59.999Z, such as 2030-01-01T00:00:00Z',
      )
  }
  const bound = capsule.boundKeys ?? []
  const twice = bound.findIndex((config) => capsule.keys.some((other) => other.key === config.key))
  if (twice !== -1)
    throw new ConfigError(`${where}.boundKeys[${twice}] is also in ${where}.keys: a key is bound or not`)
  const listed = new Set([...capsule.keys, ...bound].map((config) => config.key))
  for (const [field, keys] of [
    ['quotas', Object.keys(capsule.quotas)],
    ['scenarios', Object.keys(capsule.scenarios)],
  ] as const) {
    const missing = keys.find((key) => !listed.has(key))
    if (missing !== undefined) throw new ConfigError(`${where}.${field}: ${maskKey(missing)} is not in ${where}.keys`)
  }
  return capsule
}

/** Turns a capsule's quotas into buckets at its clock (D34). */
export function capsuleBuckets(capsule: Capsule, limitsOfKey: (key: string) => Limits): Map<string, Bucket> {
  const at = Date.parse(capsule.clock)
  const minuteStart = windowStart(at, 'minute')
  const dayStart = windowStart(at, 'day')
  const buckets = new Map<string, Bucket>()
  const bound = new Map((capsule.boundKeys ?? []).map((config) => [config.key, limitsOf(config)]))
  for (const [key, quota] of Object.entries(capsule.quotas)) {
    const dayBinds = quota.dayUsed >= (bound.get(key) ?? limitsOfKey(key)).perDay
    buckets.set(`key:${key}`, {
      minuteStart,
      minuteUsed: quota.minuteUsed,
      dayStart,
      dayUsed: quota.dayUsed,
      refusedWindowStart: dayBinds ? dayStart : minuteStart,
      refused: quota.refused,
      bannedUntil: quota.bannedUntil === undefined ? 0 : Date.parse(quota.bannedUntil),
    })
  }
  return buckets
}
