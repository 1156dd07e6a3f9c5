import type { Secrets } from '../auth/create-masker.js'
import type { KeyStorage } from '../auth/key-storage.js'
import { createClock, type MovableClock } from '../clock/create-clock.js'
import { createFaultInjector, type FaultInjector } from '../faults/create-fault-injector.js'
import type { ResolvedFaults } from '../faults/fault-config.js'
import type { ReadinessCheck } from '../probes/create-readiness.js'
import { createRateLimiter } from '../rate-limit/create-rate-limiter.js'
import { createRequestLog, type KeptExchange, type LogSelection, pickLast, type RequestLog, type RequestLogEntry } from '../request-log/create-request-log.js'
import type { Answer, Timing } from '../state/maybe-promise.js'
import type { PetRepository } from '../state/pet-repository.js'
import type { RateLimitBackend } from '../state/rate-limit-backend.js'
import type { SharedScenarios, SharedState } from '../state/shared-state.js'
import { createPetStore } from '../store/create-pet-store.js'
import type { NewPet } from '../store/pet.js'
import type { ResolvedOptions } from './resolve-options.js'

/**
 * Where a sandbox's state lives: in its own memory, answering at once (`'now'`), or shared with
 * other processes (`'later'`, docs/decisions.md#d21). `createSandbox` composes the same sandbox
 * from either; the difference between the two lives here and nowhere else.
 */
export interface SandboxState<Of extends Timing> {
  clock: MovableClock<Of>
  store: PetRepository<Of>
  rateLimiter: RateLimitBackend<Of>
  /** The fault injector the pipeline draws from (a shared one follows what any process set). */
  faults: FaultInjector
  /** Makes a configuration just given to `faults` the one every process follows; answers it. */
  shareFaults(next: ResolvedFaults): Answer<ResolvedFaults, Of>
  keyStorage: KeyStorage | undefined
  /** Each key's scenario as every process sees it; undefined for a sandbox of its own (D29). */
  scenarios: SharedScenarios | undefined
  requestLog: {
    /** Writes an answer (core/request-log): listed ones are kept, and shared when the state is. */
    record: RequestLog['record']
    /** This process's listed entries `selection` picks, with their bodies while kept, oldest first: for a HAR. */
    select(selection: LogSelection): KeptExchange[]
    /** This process's entry with this id and its bodies, if still kept. */
    exchange(id: string): KeptExchange | undefined
    /** The entries `selection` picks, oldest first: every process's when the log is shared. */
    last(selection: LogSelection): Answer<RequestLogEntry[], Of>
    /** Calls `listener` with each answered request this state hears of; returns the stop. */
    onRequest(listener: (entry: RequestLogEntry) => void): () => void
    /** Forgets this process's own entries (a shared log is emptied by the store's reset). */
    clear(): void
  }
  /** Readiness checks of the state itself, beside the store's seeding. */
  checks: ReadinessCheck[]
  close(): Promise<void>
}

/** What both kinds of state are made from. */
export interface StateInputs {
  resolved: ResolvedOptions
  /** The seeded pets, drawn anew on each reset; one without an id takes the one after the pet before it. */
  seed: () => Iterable<NewPet & { id?: number }>
  /** The secrets in force (keys and admin token), masked wherever the request log shows them. */
  secrets: () => Secrets
  faults: ResolvedFaults
}

/** The sandbox's own state, in its memory. */
export function ownState({ resolved, seed, secrets, faults }: StateInputs): SandboxState<'now'> {
  const clock = createClock(resolved.now)
  const policy = { banAfter: resolved.banAfter, banSeconds: resolved.banSeconds }
  const injector = createFaultInjector({ faults, ...(resolved.sleep ? { sleep: resolved.sleep } : {}) })
  const log = resolved.requestLog ?? createRequestLog(resolved.requestLogSize, secrets)
  const { storage } = resolved
  return {
    clock,
    store: createPetStore({ seed, maxPets: resolved.maxPets, ...(storage ? { storage } : {}) }),
    rateLimiter: createRateLimiter({ now: clock.now, ...policy }),
    faults: injector,
    shareFaults: () => injector.config(),
    keyStorage: resolved.keyStorage,
    scenarios: undefined,
    requestLog: {
      record: log.record,
      select: log.select,
      exchange: log.exchange,
      last: (selection) => log.select(selection).map((exchange) => exchange.entry),
      onRequest: log.subscribe,
      clear: log.clear,
    },
    checks: [
      ...(storage?.notReady ? [{ name: 'storage', notReady: () => storage.notReady?.() }] : []),
      ...(resolved.keyStorage?.notReady ? [{ name: 'key storage', notReady: () => resolved.keyStorage?.notReady?.() }] : []),
    ],
    close: () => Promise.resolve(),
  }
}

/** State shared with other processes through `shared` (the CLI's `--redis`). */
export function sharedState({ resolved, seed, secrets, faults }: StateInputs, shared: SharedState): SandboxState<'later'> {
  const injector = createFaultInjector({ faults, ...(resolved.sleep ? { sleep: resolved.sleep } : {}) })
  const following = followSharedFaults(injector, shared)
  const localLog = resolved.requestLog ?? createRequestLog(resolved.requestLogSize, secrets)
  const sharedLog = shared.requestLog(resolved.requestLogSize)
  // The log lives in the shared state: every listed entry this process writes goes there (those
  // written outside the handlers too: the server's refusals, the event stream's), and this
  // process tells its own watchers of its own entries at once; the shared log brings them the
  // other processes' entries.
  localLog.forward(sharedLog.record)
  return {
    clock: createClock(resolved.now, shared.clockOffset),
    store: shared.pets(
      { seed: resolved.seed, pets: resolved.lastSeededId, draw: seed, given: resolved.givenPets !== undefined },
      { maxPets: resolved.maxPets },
    ),
    rateLimiter: shared.rateLimits({ source: resolved.now, banAfter: resolved.banAfter, banSeconds: resolved.banSeconds }),
    faults: following,
    shareFaults: (next) => shared.faults.set(next).then(following.config),
    keyStorage: shared.keys ?? resolved.keyStorage,
    scenarios: shared.scenarios,
    requestLog: {
      record: localLog.record,
      // An exchange's bodies stay with the process that answered it.
      select: localLog.select,
      exchange: localLog.exchange,
      // The shared log holds the entries built; a filter looks at every one kept.
      last: async (selection) => {
        const kept = await sharedLog.last(selection.match === undefined ? selection.limit : undefined)
        return pickLast(
          kept,
          (entry) => entry,
          (entry) => entry,
          selection,
        )
      },
      onRequest(listener) {
        const stopLocal = localLog.subscribe(listener)
        const stopOthers = sharedLog.watchOthers(listener)
        return () => {
          stopLocal()
          stopOthers()
        }
      },
      clear: localLog.clear,
    },
    checks: [{ name: 'shared state', notReady: () => shared.notReady() }],
    close: () => shared.close(),
  }
}

/**
 * The fault injector of a process sharing its state: before each draw it takes up the
 * configuration last set through any process, and starts over after a reset through any process.
 * The draws stay the process's own, seeded as usual.
 */
function followSharedFaults(injector: FaultInjector, shared: SharedState): FaultInjector {
  let followed = shared.faults.current()
  let resets = shared.faults.resets()
  const follow = () => {
    const current = shared.faults.current()
    if (current !== undefined && current !== followed) {
      followed = current
      injector.configure(current)
    }
    // As a reset does on one process, so a run after a reset repeats (docs/decisions.md#d21).
    const latest = shared.faults.resets()
    if (latest !== resets) {
      resets = latest
      injector.restart()
    }
  }
  return {
    ...injector,
    config() {
      follow()
      return injector.config()
    },
    inject(operationId, headers) {
      follow()
      return injector.inject(operationId, headers)
    },
  }
}
