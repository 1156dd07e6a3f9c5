import { ConfigError } from '../errors/config-error.js'
import { resolveDemoKeys, resolveKeys } from '../auth/resolve-keys.js'
import type { ApiKey } from '../auth/key-config.js'
import { maskKey } from '../auth/mask-key.js'
import { type Capsule, readCapsule } from '../sessions/capsule.js'
import { isRecordedHar, learnCapsule } from '../learning/learn-capsule.js'
import { checkInput } from '../contract/check-input.js'
import { optionNames, refuseUnknownOptions } from '../contract/option-names.js'
import type { SandboxOptions, SharedSandboxOptions } from './sandbox-options.js'
import type { SharedState } from '../state/shared-state.js'
import { PET_STATUSES, type PetStatus } from '../store/pet.js'
import { resolvePets } from '../store/resolve-pets.js'

export const MAX_PETS = 100_000

/** Bounds stored pets by default (BENCHMARKS.md#memory-per-stored-pet). */
export const DEFAULT_MAX_PETS = 1_000_000

// Plain JavaScript's typos are refused as TypeScript's are.
const OPTION_NAMES = optionNames<SharedSandboxOptions>({
  baseUrl: true,
  seed: true,
  pets: true,
  maxPets: true,
  keys: true,
  now: true,
  startAt: true,
  from: true,
  sessions: true,
  banAfter: true,
  banSeconds: true,
  defaultStatus: true,
  corsOrigins: true,
  deprecation: true,
  adminToken: true,
  scenarios: true,
  prefer: true,
  faults: true,
  sleep: true,
  requestLogSize: true,
  storage: true,
  keyStorage: true,
  requestLog: true,
  adminGate: true,
  proxyState: true,
  shadowReport: true,
  onUnexpectedError: true,
  shared: true,
})

/** Checks options once and fills in the defaults. */
export function resolveOptions(options: SandboxOptions & { shared?: SharedState | undefined }) {
  if (typeof options !== 'object' || options === null)
    throw new ConfigError(`createSandbox takes an object of options, got ${options === null ? 'null' : typeof options}`)
  refuseUnknownOptions(options, OPTION_NAMES)
  // Learned into a capsule first (D41): the start-up world (D34).
  const from =
    options.from === undefined
      ? undefined
      : isRecordedHar(options.from)
        ? learnCapsule(options.from, 'from', (options.now ?? Date.now)())
        : readCapsule(options.from, 'from')
  if (from !== undefined && options.pets !== undefined)
    throw new ConfigError('from and pets cannot be combined: the capsule says which pets there are')
  if (from !== undefined && from.pets.length > MAX_PETS)
    throw new ConfigError(`from.pets holds ${from.pets.length} pets; a sandbox starts with at most ${MAX_PETS}`)
  const seed = options.seed ?? from?.seed ?? 1
  if (!Number.isSafeInteger(seed)) throw new ConfigError(`seed must be an integer, got ${String(seed)}`)
  const givenPets =
    from !== undefined ? from.pets : Array.isArray(options.pets) ? resolvePets(options.pets, 'pets') : undefined
  const pets = givenPets?.length ?? (options.pets as number | undefined) ?? 50
  if (!Number.isSafeInteger(pets) || pets < 0 || pets > MAX_PETS) {
    throw new ConfigError(`pets must be a whole number from 0 to ${MAX_PETS} or a list of pets, got ${String(pets)}`)
  }
  const lastSeededId = givenPets === undefined ? pets : (givenPets.at(-1)?.id ?? 0)
  const maxPets = options.maxPets ?? DEFAULT_MAX_PETS
  if (!Number.isSafeInteger(maxPets) || maxPets < pets) {
    throw new ConfigError(`maxPets must be a whole number no smaller than pets (${pets}), got ${String(maxPets)}`)
  }
  const banAfter = options.banAfter ?? 10
  if (!Number.isSafeInteger(banAfter) || banAfter < 0)
    throw new ConfigError(`banAfter must be a whole number of 0 or more, got ${String(banAfter)}`)
  const banSeconds = options.banSeconds ?? 900
  if (!Number.isFinite(banSeconds) || banSeconds <= 0)
    throw new ConfigError(`banSeconds must be a positive number, got ${String(banSeconds)}`)
  const defaultStatus = options.defaultStatus === undefined ? 'available' : options.defaultStatus
  if (defaultStatus !== null && !PET_STATUSES.includes(defaultStatus)) {
    throw new ConfigError(
      `defaultStatus must be one of ${PET_STATUSES.join(', ')} or null, got ${String(defaultStatus)}`,
    )
  }
  const corsOrigins = options.corsOrigins ?? '*'
  if (
    corsOrigins !== '*' &&
    (!Array.isArray(corsOrigins) || corsOrigins.some((origin) => typeof origin !== 'string'))
  ) {
    throw new ConfigError(`corsOrigins must be '*' or a list of origins`)
  }
  const keys = options.keys === undefined ? withCapsuleKeys(resolveDemoKeys(), from) : resolveKeys(options.keys)
  if (from !== undefined && options.keys !== undefined) {
    const missing = from.keys.findIndex((config) => !keys.some((key) => key.key === config.key))
    if (missing !== -1) {
      throw new ConfigError(
        `from.keys[${missing}] (${maskKey(from.keys[missing]!.key)}) is not among keys: add it to keys,` +
          ` or leave keys out to adopt the capsule's`,
      )
    }
  }
  const adminToken = options.adminToken
  if (adminToken !== undefined) {
    checkInput('BearerToken', adminToken, 'adminToken')
    if (keys.some((key) => key.key === adminToken)) throw new ConfigError('adminToken must differ from every API key')
  }
  const requestLogSize = options.requestLogSize ?? 100
  if (!Number.isSafeInteger(requestLogSize) || requestLogSize < 0 || requestLogSize > 100_000) {
    throw new ConfigError(`requestLogSize must be a whole number from 0 to 100000, got ${String(requestLogSize)}`)
  }
  if (options.shared !== undefined && options.storage !== undefined)
    throw new ConfigError('storage and shared cannot be combined: shared state keeps the pets')
  const startAt =
    options.startAt !== undefined ? instantOf(options.startAt) : from === undefined ? undefined : Date.parse(from.clock)
  const sessions = resolveSessions(options.sessions)
  return {
    shared: options.shared,
    baseUrl: options.baseUrl,
    seed,
    pets,
    givenPets,
    lastSeededId,
    maxPets,
    keys,
    adminToken,
    from,
    faults: options.faults ?? from?.faults ?? {},
    scenarios: {
      keys: options.scenarios?.keys ?? from?.scenarios,
      custom: options.scenarios?.custom ?? from?.customScenarios,
    },
    prefer: options.prefer === true,
    sleep: options.sleep,
    requestLogSize,
    storage: options.storage,
    keyStorage: options.keyStorage,
    requestLog: options.requestLog,
    adminGate: options.adminGate,
    proxyState: options.proxyState,
    shadowReport: options.shadowReport,
    now: options.now ?? Date.now,
    startAt,
    sessions,
    banAfter,
    banSeconds,
    defaultStatus: (defaultStatus ?? undefined) as PetStatus | undefined,
    corsOrigins,
    deprecation: options.deprecation ?? {},
    onUnexpectedError:
      options.onUnexpectedError ?? ((error: unknown) => console.error('petstore-sandbox: unexpected error', error)),
  }
}

export type ResolvedOptions = ReturnType<typeof resolveOptions>

/** Adds a capsule's keys to the demo keys, its own winning. */
function withCapsuleKeys(demo: ApiKey[], from: Capsule | undefined): ApiKey[] {
  // Bound keys too (D46).
  const configs = from === undefined ? [] : [...from.keys, ...(from.boundKeys ?? [])]
  if (configs.length === 0) return demo
  const adopted = resolveKeys(configs)
  return [...demo.filter((key) => !adopted.some((other) => other.key === key.key)), ...adopted]
}

/** Bounds the named sessions a sandbox keeps (D34). */
export const MAX_SESSIONS = 100_000
export const DEFAULT_MAX_SESSIONS = 1000
export const DEFAULT_SESSION_IDLE_MS = 3_600_000

function resolveSessions(options: SandboxOptions['sessions']) {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new ConfigError('sessions must be an object: { max, idleMs, onDrop }')
  const max = options?.max ?? DEFAULT_MAX_SESSIONS
  if (!Number.isSafeInteger(max) || max < 1 || max > MAX_SESSIONS)
    throw new ConfigError(`sessions.max must be a whole number from 1 to ${MAX_SESSIONS}, got ${String(max)}`)
  const idleMs = options?.idleMs ?? DEFAULT_SESSION_IDLE_MS
  if (!Number.isSafeInteger(idleMs) || idleMs < 1)
    throw new ConfigError(`sessions.idleMs must be a whole number of ms, 1 or more, got ${String(idleMs)}`)
  const onDrop = options?.onDrop
  if (onDrop !== undefined && typeof onDrop !== 'function') throw new ConfigError('sessions.onDrop must be a function')
  return { max, idleMs, onDrop }
}

function instantOf(instant: Date | number | string): number {
  const ms = typeof instant === 'number' ? instant : instant instanceof Date ? instant.getTime() : Date.parse(instant)
  if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31, 23, 59, 59, 999)) {
    throw new ConfigError(
      'startAt must be an instant between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z,' +
        ' such as 2030-01-01T00:00:00Z',
    )
  }
  return ms
}
