import type { ApiKey } from '../auth/key-config.js'
import { maskKey } from '../auth/mask-key.js'
import { ConfigError } from '../errors/config-error.js'
import { resolveFaults } from '../faults/fault-config.js'
import type { Har } from '../request-log/to-har.js'
import type { InSession } from '../request-log/create-request-log.js'
import { type ResolvedScenario, type ScenarioDefinition, unknownScenario } from '../scenarios/scenario-config.js'
import type { MaybePromise, Timing } from '../state/maybe-promise.js'
import type { OriginKind, SharedOrigin, SharedOriginInfo, WorldSettings } from '../state/shared-state.js'
import { createPetBase, type PetBase } from '../store/create-pet-base.js'
import { emptyOverlay, type PetOrigin } from '../store/create-pet-store.js'
import type { Pet } from '../store/pet.js'
import { type Capsule, capsuleBuckets, type CapsuleParts } from './capsule.js'
import type { Origin, WorldHolds } from './origin.js'
import type { World } from './world.js'
import type { BoundKeys } from '../auth/create-bound-keys.js'
import { limitsOf } from '../auth/resolve-keys.js'
import { DEFAULT_SESSION } from './session-name.js'

/** Holds the process's parts the carriers read. */
export interface WorldCarrierParts {
  keys(): readonly ApiKey[]
  bound: BoundKeys
  adminToken: string | undefined
  knownScenarios: ReadonlyMap<string, ResolvedScenario>
  custom: Readonly<Record<string, ScenarioDefinition>> | undefined
  operationIds: readonly string[]
  requests: {
    count(of: InSession): MaybePromise<number>
    clear(of: InSession): void
    har(world: World<Timing>): Har
  }
}

/** Holds the resolved options the start-up world reads. */
export interface StartUpParts {
  base: PetBase
  seed: number
  startAt: number | undefined
  faults: unknown
  scenarios: Readonly<Record<string, string>> | undefined
  /** Gives a `--from` capsule's next id and quotas. */
  from: Capsule | undefined
  keys: readonly ApiKey[]
  operationIds: readonly string[]
}

/** Holds the capsule fields the entries write. */
export type CapsuleHolds = Omit<CapsuleParts, 'session' | 'made'>

/** Holds what a fork copies (`World.fork`). */
export type Copied = Pick<Origin, 'pets' | 'quotas'>

/** Says how each carrier carries one entry of a world. */
export interface WorldEntry<K extends keyof WorldHolds> {
  /** Names the `Capsule` properties holding the entry. */
  readonly schema: ReadonlyArray<keyof Capsule>
  startUp(parts: StartUpParts): WorldHolds[K]
  /** Returns a fork's part; the source's store is ready, its clock synced. */
  fork(source: World<Timing>, copied: Copied): WorldHolds[K]
  capsule: {
    write(world: World<Timing>, parts: WorldCarrierParts): MaybePromise<Partial<CapsuleHolds>>
    /** Reads a checked capsule's part, or throws ConfigError. */
    read(capsule: Capsule, parts: WorldCarrierParts): MaybePromise<WorldHolds[K]>
  }
  /** Puts the entry back to the world's origin. */
  reset(world: World<Timing>, parts: WorldCarrierParts, options: { clock?: boolean }): MaybePromise<void>
  shared: {
    put(origin: Origin): Partial<WorldSettings> | Partial<CapsuleCopy>
    /** Reads the part back, else from `startUp`. */
    take(info: SharedOriginInfo, startUp: Origin): WorldHolds[K]
  }
  summary(world: World<Timing>, parts: WorldCarrierParts): MaybePromise<Partial<SummaryHolds>>
}

/** Holds what a shared state copies of a capsule's origin. */
export type CapsuleCopy = Omit<Extract<SharedOrigin, { kind: 'capsule' }>, 'kind' | 'settings'>

/** Holds the summary fields the entries write. */
export interface SummaryHolds {
  pets: { count: number; nextId: number }
  requests: number
  now: string
  origin: OriginKind
  from: string
  keys: Array<{ key: string; masked: string; plan: ApiKey['plan']; perMinute: number; perDay: number }>
}

export type WorldTable = { readonly [K in keyof WorldHolds]: WorldEntry<K> }

const iso = (ms: number) => new Date(ms).toISOString()

/** Lists a world's entries in reset order. */
export const WORLD_TABLE: WorldTable = {
  origin: {
    schema: ['session'],
    startUp: () => ({ kind: 'start-up' }),
    fork: (source) => ({ kind: 'fork', from: source.name }),
    capsule: { write: () => ({}), read: () => ({ kind: 'capsule' }) },
    reset: (world) => world.refresh?.(),
    // The kind and source are `SharedOrigin`'s discriminant.
    shared: {
      put: () => ({}),
      take: (info) => ({ kind: info.kind, ...(info.from === undefined ? {} : { from: info.from }) }),
    },
    summary: ({ origin }) => ({ origin: origin.kind, ...(origin.from === undefined ? {} : { from: origin.from }) }),
  },
  clock: {
    schema: ['clock'],
    startUp: ({ startAt }) => ({ clock: startAt }),
    fork: (source) => ({ clock: source.clock.now() }),
    capsule: {
      write: (world) => ({ clock: world.clock.now() }),
      read: (capsule) => ({ clock: Date.parse(capsule.clock) }),
    },
    async reset(world, _parts, options) {
      if (options.clock !== true) return
      const at = world.origin.clock
      await (at === undefined ? world.clock.reset() : world.clock.set(at))
    },
    shared: { put: (origin) => ({ clock: origin.clock }), take: (info) => ({ clock: info.settings?.clock }) },
    summary: (world) => ({ now: iso(world.clock.now()) }),
  },
  quotas: {
    schema: ['quotas', 'keys'],
    startUp: ({ from, keys }) => ({
      quotas:
        from === undefined ? new Map() : capsuleBuckets(from, (key) => keys.find((apiKey) => apiKey.key === key)!),
    }),
    fork: (_source, copied) => ({ quotas: copied.quotas }),
    capsule: {
      write: async ({ rateLimiter }, parts) => ({
        keys: await Promise.all(
          parts.keys().map(async (key) => ({
            config: { key: key.key, plan: key.plan, perMinute: key.perMinute, perDay: key.perDay },
            quota: await rateLimiter.inspect(`key:${key.key}`, key),
          })),
        ),
      }),
      read(capsule, parts) {
        const keys = parts.keys()
        for (const [index, config] of capsule.keys.entries()) {
          if (!keys.some((apiKey) => apiKey.key === config.key)) {
            throw new ConfigError(
              `capsule.keys[${index}] (${maskKey(config.key)}) is not a key of this sandbox: add it ` +
                '(POST /__sandbox/keys, sandbox.apiKeys.add) or start the sandbox with it',
            )
          }
        }
        return { quotas: capsuleBuckets(capsule, (key) => keys.find((apiKey) => apiKey.key === key)!) }
      },
    },
    reset: (world) => world.rateLimiter.clear(),
    shared: {
      put: (origin) => (origin.kind === 'capsule' ? { quotas: origin.quotas } : {}),
      take: () => ({ quotas: new Map() }),
    },
    summary: () => ({}),
  },
  // A fork copies none, a reset keeps them; the registry binds them (D46).
  keys: {
    schema: ['boundKeys'],
    startUp: () => ({ boundKeys: [] }),
    fork: () => ({ boundKeys: [] }),
    capsule: {
      async write(world, parts) {
        const bound = await parts.bound.of(world.name)
        return {
          boundKeys: await Promise.all(
            bound.map(async (key) => ({
              config: { key: key.key, plan: key.plan, perMinute: key.perMinute, perDay: key.perDay },
              quota: await world.rateLimiter.inspect(`key:${key.key}`, key),
            })),
          ),
        }
      },
      read(capsule, parts) {
        const keys = parts.keys()
        for (const [index, config] of (capsule.boundKeys ?? []).entries()) {
          if (config.key === parts.adminToken || keys.some((apiKey) => apiKey.key === config.key))
            throw new ConfigError(
              `capsule.boundKeys[${index}] (${maskKey(config.key)}) is a key of this sandbox or its admin token:` +
                ' a bound key is no other key',
            )
        }
        return { boundKeys: (capsule.boundKeys ?? []).map(limitsOf) }
      },
    },
    reset: () => undefined,
    shared: { put: () => ({}), take: () => ({ boundKeys: [] }) },
    summary: async (world, parts) => ({
      keys: (await parts.bound.of(world.name)).map((key) => ({
        key: key.key,
        masked: maskKey(key.key),
        plan: key.plan,
        perMinute: key.perMinute,
        perDay: key.perDay,
      })),
    }),
  },
  log: {
    schema: ['har'],
    startUp: () => ({}),
    fork: () => ({}),
    capsule: { write: (world, parts) => ({ har: parts.requests.har(world) }), read: () => ({}) },
    // The store's reset empties a shared log, in the same step.
    reset: (world, parts) => parts.requests.clear({ session: world.session }),
    shared: { put: () => ({}), take: () => ({}) },
    summary: async (world, parts) => ({ requests: await parts.requests.count({ session: world.session }) }),
  },
  faults: {
    schema: ['faults'],
    startUp: ({ faults, seed, operationIds }) => ({ faults: resolveFaults(faults, seed, operationIds) }),
    fork: (source) => ({ faults: source.faults.config() }),
    capsule: {
      write: (world) => ({ faults: world.faults.config() }),
      read: (capsule, parts) => ({
        faults: resolveFaults(capsule.faults, capsule.seed, parts.operationIds, 'capsule.faults'),
      }),
    },
    // The configuration in force stays; the draws start over.
    reset: (world) => world.faults.restart(),
    shared: {
      put: (origin) => ({ faults: origin.faults }),
      take: (info, startUp) => ({ faults: info.settings?.faults ?? startUp.faults }),
    },
    summary: () => ({}),
  },
  scenarios: {
    schema: ['scenarios', 'customScenarios', 'seed'],
    startUp: ({ scenarios, seed }) => ({ scenarios: { ...scenarios }, seed }),
    fork: (source) => ({ scenarios: source.scenarios.all(), seed: source.scenarios.seed() }),
    capsule: {
      write: (world, parts) => ({
        scenarios: world.scenarios.all(),
        seed: world.scenarios.seed(),
        custom: parts.custom,
      }),
      read(capsule, parts) {
        const known = parts.knownScenarios
        for (const [key, name] of Object.entries(capsule.scenarios)) {
          if (!known.has(name)) {
            throw new ConfigError(
              `capsule.scenarios: ${maskKey(key)}: ${unknownScenario(name, [...known.keys()])};` +
                ' start the sandbox with --scenarios defining it',
            )
          }
        }
        return { scenarios: { ...capsule.scenarios }, seed: capsule.seed }
      },
    },
    reset: async (world) => world.scenarios.reset(),
    shared: {
      put: (origin) => ({ scenarios: origin.scenarios, seed: origin.seed }),
      take: (info, startUp) => ({
        scenarios: info.settings?.scenarios ?? startUp.scenarios,
        seed: info.settings?.seed ?? startUp.seed,
      }),
    },
    summary: () => ({}),
  },
  pets: {
    schema: ['pets', 'nextId'],
    // A capsule's next id may be beyond its last pet's.
    startUp: ({ base, from }) => ({
      pets: () => ({ base, overlay: emptyOverlay(Math.max(base.lastId() + 1, from?.nextId ?? 0)) }),
    }),
    fork: (_source, copied) => ({ pets: copied.pets }),
    capsule: {
      write: async ({ store }) => ({ pets: await store.all(), nextId: await store.nextId() }),
      async read(capsule) {
        const base = createPetBase()
        await base.fill(capsule.pets)
        return { pets: () => ({ base, overlay: emptyOverlay(capsule.nextId) }) }
      },
    },
    reset: (world) => world.store.reset(),
    shared: {
      put(origin) {
        if (origin.kind !== 'capsule' || origin.pets === undefined) return {}
        const pets = origin.pets()
        return { pets: petsOf(pets), nextId: pets.overlay.nextId }
      },
      take: () => ({ pets: undefined }),
    },
    summary: async ({ store }) => ({ pets: { count: await store.count(), nextId: await store.nextId() } }),
  },
}

const ENTRIES = Object.values(WORLD_TABLE) as Array<WorldEntry<keyof WorldHolds>>

function assemble(parts: ReadonlyArray<WorldHolds[keyof WorldHolds]>): Origin {
  return Object.assign({}, ...parts) as Origin
}

export function startUpOrigin(parts: StartUpParts): Origin {
  return assemble(ENTRIES.map((entry) => entry.startUp(parts)))
}

export function forkOrigin(source: World<Timing>, copied: Copied): Origin {
  return assemble(ENTRIES.map((entry) => entry.fork(source, copied)))
}

/** Makes a checked capsule's origin. */
export async function capsuleOrigin(capsule: Capsule, parts: WorldCarrierParts): Promise<Origin> {
  const read: Array<WorldHolds[keyof WorldHolds]> = []
  for (const entry of ENTRIES) read.push(await entry.capsule.read(capsule, parts))
  return assemble(read)
}

export async function capsuleHolds(world: World<Timing>, parts: WorldCarrierParts): Promise<CapsuleHolds> {
  const written: Array<Partial<CapsuleHolds>> = []
  for (const entry of ENTRIES) written.push(await entry.capsule.write(world, parts))
  return Object.assign({}, ...written) as CapsuleHolds
}

export async function resetWorld(
  world: World<Timing>,
  parts: WorldCarrierParts,
  options: { clock?: boolean },
): Promise<void> {
  for (const entry of ENTRIES) await entry.reset(world, parts, options)
}

export async function summaryHolds(world: World<Timing>, parts: WorldCarrierParts): Promise<SummaryHolds> {
  const written: Array<Partial<SummaryHolds>> = []
  for (const entry of ENTRIES) written.push(await entry.summary(world, parts))
  return Object.assign({}, ...written) as SummaryHolds
}

/** Tells a shared state an origin, its settings as one value. */
export function sharedOriginOf(origin: Origin): SharedOrigin {
  const put = Object.assign({}, ...ENTRIES.map((entry) => entry.shared.put(origin))) as WorldSettings &
    Partial<CapsuleCopy>
  const { pets, nextId, quotas, ...settings } = put
  if (origin.kind === 'fork') return { settings, kind: 'fork', from: origin.from ?? DEFAULT_SESSION }
  if (origin.kind === 'capsule' && pets !== undefined)
    return { settings, kind: 'capsule', pets, nextId: nextId!, quotas: quotas ?? new Map() }
  return { settings, kind: 'start-up' }
}

export function originFromShared(info: SharedOriginInfo, startUp: Origin): Origin {
  return assemble(ENTRIES.map((entry) => entry.shared.take(info, startUp)))
}

/** Lists a base's pets under its overlay, in id order. */
function petsOf({ base, overlay }: PetOrigin): Pet[] {
  const fromBase = base.all().filter((pet) => !overlay.replaced.has(pet.id))
  return [...fromBase, ...overlay.replaced.values(), ...overlay.added].sort((a, b) => a.id - b.id)
}
