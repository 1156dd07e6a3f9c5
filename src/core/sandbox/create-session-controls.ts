import type { AdminSessionInit, SessionSummary, StateSummary } from '../admin/admin-controls.js'
import type { SESSION_OPERATIONS } from '../admin/create-admin-operations.js'
import type { BoundKeys } from '../auth/create-bound-keys.js'
import type { KeyRing } from '../auth/create-key-ring.js'
import type { Secrets } from '../auth/create-masker.js'
import type { ApiKey } from '../auth/key-config.js'
import { maskKey } from '../auth/mask-key.js'
import { PLANS } from '../auth/plans.js'
import { checkInput } from '../contract/check-input.js'
import { learnCapsule } from '../learning/learn-capsule.js'
import type { SessionLifecycle, SessionStart } from '../sessions/session-lifecycle.js'
import { checkSessionName } from '../sessions/session-name.js'
import { optionNames, refuseUnknownOptions } from '../contract/option-names.js'
import { ConfigError, UnknownKeyError } from '../errors/config-error.js'
import { type FaultOptions, resolveFaults } from '../faults/fault-config.js'
import { countedClient } from '../rate-limit/counted-client.js'
import type { LogSelection } from '../request-log/create-request-log.js'
import type { HarSelection } from '../request-log/to-har.js'
import type { RateLimitBackend, QuotaChange, QuotaStanding } from '../state/rate-limit-backend.js'
import type { Answer, Timing } from '../state/maybe-promise.js'
import { assertPet } from '../store/assert-pet.js'
import { storedPet } from '../store/stored-pet.js'
import type { World } from '../sessions/world.js'
import { type Capsule, makeCapsule, readCapsule } from '../sessions/capsule.js'
import { capsuleHolds, resetWorld, summaryHolds, type WorldCarrierParts } from '../sessions/world-table.js'
import type { ResolvedOptions } from './resolve-options.js'
import type { RequestHandler } from 'msw'
import type { Sandbox, SandboxResetOptions, Session, SessionControls, SessionInit } from './sandbox.js'
import { createSandboxFetch } from './create-sandbox-fetch.js'
import { createSessionKeys } from './create-session-keys.js'
import type { SandboxState } from './sandbox-state.js'
import { sandboxHar } from './sandbox-har.js'

/** Names where the members no admin operation serves are served. */
export const SERVED_ELSEWHERE = {
  pets: 'the API itself, whose answers are the pets',
  onRequest: 'the event stream, GET /__sandbox/events',
  capsule: 'GET /__sandbox/sessions/{name}/capsule',
} as const satisfies Partial<Record<keyof SessionControls, string>>

type ServedByAdmin = (typeof SESSION_OPERATIONS)[keyof typeof SESSION_OPERATIONS]
const everyMemberServed: Exclude<keyof SessionControls, ServedByAdmin | keyof typeof SERVED_ELSEWHERE> extends never
  ? true
  : false = true
const onlyMembersServed: Exclude<ServedByAdmin, keyof SessionControls> extends never ? true : false = true
void everyMemberServed
void onlyMembersServed

// Plain JavaScript's typos are refused as TypeScript's are.
const RESET_OPTIONS = optionNames<SandboxResetOptions>({ clock: true })
const LOG_SELECTION = optionNames<LogSelection>({ limit: true, match: true })
const HAR_SELECTION = optionNames<HarSelection>({ limit: true, match: true, id: true })

/** Holds what every session's controls share. */
export interface ProcessControls<Of extends Timing> {
  resolved: ResolvedOptions
  keyRing: KeyRing
  secrets: () => Secrets
  requestLog: SandboxState<Of>['requestLog']
  /** Is the default session's limiter (D16). */
  addressLimiter: RateLimitBackend<Of>
  operationIds: readonly string[]
  /** Marks the store busy while `work` runs (/readyz answers 503). */
  tracked(work: Promise<void>): Promise<void>
  /** Dates sessions' use, by the default session's clock. */
  now(): number
  carriers: WorldCarrierParts
}

export function createSessionControls<Of extends Timing>(
  world: World<Of>,
  process: ProcessControls<Of>,
): SessionControls<Of> {
  const { resolved, keyRing, requestLog, carriers } = process
  const { clock, store, rateLimiter, faults, scenarios } = world
  const of = { session: world.session }
  const withKey = <T>(key: string, read: (apiKey: ApiKey) => Answer<T, Of>): Answer<T, Of> => {
    const found = keyRing.find(key)
    if (found !== undefined) return read(found)
    const pick = (bound: readonly ApiKey[]) => {
      const apiKey = bound.find((candidate) => candidate.key === key)
      if (apiKey === undefined) throw new UnknownKeyError(key)
      return read(apiKey)
    }
    const bound = carriers.bound.of(world.name)
    return (bound instanceof Promise ? bound.then(pick) : pick(bound)) as Answer<T, Of>
  }
  const controls: SessionControls<Of> = {
    clock,
    onRequest(listener) {
      return requestLog.onRequest((entry) => {
        if (entry.session === world.session) listener(entry)
      })
    },
    reset(options = {}) {
      refuseUnknownOptions(options, RESET_OPTIONS, 'reset')
      // Not ready from the call on.
      return process.tracked(
        (async () => {
          await resetWorld(world, carriers, options)
        })(),
      )
    },
    // Copies: records are shared, their texts cached.
    pets: {
      all: () => copied(store.all(), (pets) => pets.map(storedPet)),
      get: (id) => copied(store.get(id), (pet) => (pet === undefined ? undefined : storedPet(pet))),
      async create(pet) {
        assertPet('NewPet', pet)
        await store.ready()
        return storedPet(await world.operations.createPet.store(pet))
      },
      async put(pet) {
        assertPet('Pet', pet)
        await store.ready()
        return storedPet(await store.put(pet))
      },
    },
    quota: {
      get: (key: string) => withKey(key, (apiKey) => rateLimiter.inspect(`key:${key}`, apiKey)),
      set: (key: string, change: QuotaChange) =>
        withKey(key, (apiKey) =>
          rateLimiter.arrange(`key:${key}`, apiKey, checkInput<QuotaChange>('QuotaChange', change, 'quota')),
        ),
      ofAddress: async (address: string): Promise<QuotaStanding> =>
        await process.addressLimiter.inspect(`address:${countedClient(address)}`, PLANS.free),
    },
    faults: {
      get: faults.config,
      set(options: FaultOptions) {
        const next = resolveFaults(options, resolved.seed, process.operationIds)
        faults.configure(next)
        return world.shareFaults(next)
      },
    },
    requests: (selection?: number | LogSelection) => {
      if (typeof selection === 'object' && selection !== null)
        refuseUnknownOptions(selection, LOG_SELECTION, 'requests')
      return requestLog.last(typeof selection === 'number' ? { limit: selection } : (selection ?? {}), of)
    },
    async state(): Promise<StateSummary> {
      await store.ready()
      await clock.sync()
      return {
        session: world.name,
        now: new Date(clock.now()).toISOString(),
        pets: { count: await store.count(), nextId: await store.nextId() },
        seeded: {
          seed: resolved.seed,
          pets: resolved.pets,
          source: resolved.givenPets === undefined ? 'generated' : 'given',
        },
        clockOffsetMs: clock.offset(),
        prefer: resolved.prefer,
        keys: await Promise.all(
          keyRing.keys.map(async (key) => ({
            key: key.key,
            masked: maskKey(key.key),
            plan: key.plan,
            perMinute: key.perMinute,
            perDay: key.perDay,
            quota: await rateLimiter.inspect(`key:${key.key}`, key),
            ...(scenarios.of(key.key) === undefined ? {} : { scenario: scenarios.of(key.key) }),
          })),
        ),
        faults: faults.config(),
        scenarios: scenarios.list(),
      }
    },
    har: (selection = {}) => {
      refuseUnknownOptions(selection, HAR_SELECTION, 'har')
      return sandboxHar(
        { select: (picked) => requestLog.select(picked, of), exchange: (wanted) => requestLog.exchange(wanted, of) },
        selection,
        process.secrets(),
        resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin,
      )
    },
    scenarios: {
      set: async (key, name) => scenarios.set(key, name),
      clear: async (key) => scenarios.clear(key),
      get: scenarios.of,
      list: scenarios.list,
    },
    capsule: () => capsuleOf(world, process),
  }
  return controls
}

/** Returns each world's `Session`, made once. */
export function createSessionOf<Of extends Timing>(
  sessions: SessionLifecycle<Of>,
  process: ProcessControls<Of>,
  handlers: RequestHandler[],
  boundKeys: BoundKeys,
): (world: World<Of>) => Session<Of> {
  const made = new WeakMap<World<Of>, Session<Of>>()
  return (world) => {
    let session = made.get(world)
    if (session === undefined) {
      session = {
        ...createSessionControls(world, process),
        name: world.name,
        fetch: createSandboxFetch(handlers, process.resolved.baseUrl, world.session),
        // Remakes a session dropped meanwhile.
        keys: createSessionKeys(world.name, boundKeys, async () => {
          sessions.world(world.name)
        }),
      }
      made.set(world, session)
    }
    return session
  }
}

export async function capsuleOf<Of extends Timing>(world: World<Of>, process: ProcessControls<Of>): Promise<Capsule> {
  await world.store.ready()
  await world.clock.sync()
  return makeCapsule({
    session: world.name,
    made: process.resolved.now(),
    ...(await capsuleHolds(world, process.carriers)),
  })
}

/** Serves `sandbox.sessions` and the admin `/sessions`, checking what a caller gives. */
export function createSandboxSessions<Of extends Timing>(
  sessions: SessionLifecycle<Of>,
  process: ProcessControls<Of>,
): Omit<Sandbox<Of>['sessions'], 'put'> & {
  /** Takes a client's JSON too, checked against the admin document. */
  put(name: string, init?: SessionInit | AdminSessionInit): Promise<SessionSummary>
} {
  return {
    list: async () => Promise.all((await sessions.list()).map((world) => summarize(world, process))),
    async get(name) {
      const world = await sessions.find(name)
      return world === undefined ? undefined : summarize(world, process)
    },
    async put(name, init = {}) {
      checkSessionName(name, 'session name', process.secrets())
      return summarize(await sessions.put(name, startOf(init, sessions, process.resolved.now())), process)
    },
    delete: (name) => sessions.delete(name),
    deleteAll: ({ prefix } = {}) => sessions.deleteAll(prefix),
    async capsule(name) {
      const world = await sessions.find(name)
      return world === undefined ? undefined : capsuleOf(world, process)
    },
  }
}

/** Checks where a session put with `init` starts; learns a recording at `now`. */
function startOf<Of extends Timing>(
  init: SessionInit | AdminSessionInit,
  sessions: SessionLifecycle<Of>,
  now: number,
): SessionStart {
  // First: a newer version is named before anything else.
  const { capsule, har, ...rest } = init as { capsule?: unknown; har?: unknown; from?: string }
  checkInput('SessionInit', rest, 'init')
  const sources = [capsule !== undefined && 'capsule', har !== undefined && 'har', rest.from !== undefined && 'from']
  const given = sources.filter(Boolean)
  if (given.length > 1) throw new ConfigError(`init: give one of from, capsule or har, not ${given.join(' and ')}`)
  if (capsule !== undefined) {
    sessions.served('Capsules')
    return { capsule: readCapsule(capsule, 'capsule') }
  }
  if (har !== undefined) {
    sessions.served('Recordings')
    return { capsule: learnCapsule(har, 'har', now) }
  }
  return rest.from === undefined ? {} : { from: rest.from }
}

/** Summarizes a session as `GET /__sandbox/sessions` lists it. */
export async function summarize<Of extends Timing>(
  world: World<Of>,
  process: ProcessControls<Of>,
): Promise<SessionSummary> {
  await world.store.ready()
  await world.clock.sync()
  const { origin, from, ...held } = await summaryHolds(world, process.carriers)
  return {
    name: world.name,
    ...held,
    created: new Date(world.created).toISOString(),
    ...(world.session === undefined ? {} : { lastUsed: new Date(world.lastUsed).toISOString() }),
    origin,
    ...(from === undefined ? {} : { from }),
  }
}

/** Gives the world's table what it reads beside a world. */
export function carrierParts<Of extends Timing>(
  process: Pick<ProcessControls<Of>, 'resolved' | 'requestLog' | 'keyRing' | 'operationIds' | 'secrets'>,
  knownScenarios: WorldCarrierParts['knownScenarios'],
  bound: WorldCarrierParts['bound'],
): WorldCarrierParts {
  const { resolved, requestLog } = process
  return {
    keys: () => process.keyRing.keys,
    bound,
    adminToken: resolved.adminToken,
    knownScenarios,
    custom: resolved.scenarios.custom,
    operationIds: process.operationIds,
    requests: {
      count: (of) => requestLog.count(of),
      clear: (of) => requestLog.clear(of),
      har: (world) =>
        sandboxHar(
          {
            select: (picked) => requestLog.select(picked, { session: world.session }),
            exchange: (wanted) => requestLog.exchange(wanted, { session: world.session }),
          },
          {},
          process.secrets(),
          resolved.baseUrl === undefined ? undefined : new URL(resolved.baseUrl).origin,
        ),
    },
  }
}

/** Copies an answer in its own timing. */
function copied<T, R, Of extends Timing>(answer: Answer<T, Of>, copy: (value: T) => R): Answer<R, Of> {
  return (answer instanceof Promise ? answer.then(copy) : copy(answer as T)) as Answer<R, Of>
}
