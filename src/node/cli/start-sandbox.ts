import cluster from 'node:cluster'
import { createSandbox } from '../../core/sandbox/create-sandbox.js'
import type { Sandbox } from '../../core/sandbox/sandbox.js'
import { ConfigError } from '../../core/errors/config-error.js'
import { serveOverHttp } from '../server/serve-over-http.js'
import { createRequestLogger, type LogFormat } from '../../core/request-log/create-request-logger.js'
import { createRequestLog } from '../../core/request-log/create-request-log.js'
import { createAdminGate } from '../../core/admin/create-admin-gate.js'
import type { ForwardingHeader, TrustedProxies } from '../server/create-client-address.js'
import { rateLimitHeaders } from '../server/refusal-answer.js'
import { loadKeysFile } from '../options/load-keys-file.js'
import { loadPetsFile } from '../options/load-pets-file.js'
import { loadCapsuleFile } from '../options/load-capsule-file.js'
import { loadFaultsFile } from '../options/load-faults-file.js'
import { loadScenariosFile } from '../options/load-scenarios-file.js'
import { createMasker } from '../../core/auth/create-masker.js'
import { formatBanner } from './format-banner.js'
import { describeInForce, type InForceItem } from '../pages/describe-in-force.js'
import type { StateFile } from '../persistence/open-state-file.js'
import type { SharedState } from '../../core/state/shared-state.js'
import type { FaultKind, LatencyRange, OperationFaults } from '../../core/faults/fault-config.js'
import type { ProgramIo } from '../options/program-io.js'
import type { ScenarioFlag } from '../options/parse-options.js'
import { stopOnSignals } from '../server/stop-on-signals.js'
import type { ServingOptions } from '../server/server-limits.js'

export interface StartOptions extends ServingOptions {
  seed: number
  pets: number
  petsFile?: string
  keys?: string
  log: LogFormat
  now?: number
  banAfter: number
  banSeconds: number
  corsOrigin?: string[]
  deprecatedAt?: number
  sunset?: number
  adminToken?: string
  state?: string
  latency?: LatencyRange
  errorRate?: number
  errorKinds?: FaultKind[]
  fault?: Record<string, OperationFaults>
  faultsFile?: string
  faultSeed?: number
  scenario?: ScenarioFlag[]
  scenarios?: string
  prefer?: boolean
  keepRequests: number
  maxSessions: number
  sessionIdle: number
  from?: string
  maxPets: number
  trustProxy?: string[]
  trustProxyHeader: ForwardingHeader
  redis?: string
  redisPrefix: string
  workers: number
  /** Names the variables that gave options, for the banner. */
  environment?: Readonly<Record<string, string>>
}

export interface ServedSandbox {
  url: string
  /** Stops the server, then lets go of the state file and Redis. */
  close(): Promise<void>
}

/** Runs `start` until a signal, or the parent going away, stops it. */
export async function startSandbox(options: StartOptions, io: ProgramIo): Promise<void> {
  let served: ServedSandbox | undefined
  // A worker's channel to the primary would keep it alive.
  stopOnSignals(io, () => served, {
    onClosed: () => cluster.worker?.disconnect(),
    ...(cluster.isWorker ? { underNpm: false } : {}),
  })
  await serveSandbox(options, io, (serving) => (served = serving))
}

/** Serves `start`'s sandbox, for `start` and `run`. */
export async function serveSandbox(
  options: StartOptions,
  io: ProgramIo,
  onListening: (served: ServedSandbox) => void = () => undefined,
): Promise<ServedSandbox> {
  let stateFile: StateFile | undefined
  let shared: SharedState | undefined
  const keys = options.keys === undefined ? undefined : await loadKeysFile(options.keys)
  const capsule = options.from === undefined ? undefined : await loadCapsuleFile(options.from)
  // A capsule's pets are given ones (D33).
  const givenPets =
    capsule !== undefined
      ? capsule.pets
      : options.petsFile === undefined
        ? undefined
        : await loadPetsFile(options.petsFile)
  const customScenarios = options.scenarios === undefined ? undefined : await loadScenariosFile(options.scenarios)
  // With a pets file the seeded ids end at its last id.
  const lastSeededId = givenPets === undefined ? options.pets : (givenPets.at(-1)?.id ?? 0)
  if (options.redis !== undefined) {
    // A shared clock: a restarted process must not move it.
    if (options.now !== undefined)
      throw new ConfigError('--now cannot be combined with --redis: move the shared clock through the admin API')
    if (options.state !== undefined)
      throw new ConfigError('--state cannot be combined with --redis: the pets live in Redis')
    // Loaded when asked for, as is the state file's lock.
    const { connectRedisState } = await import('../redis/connect-redis-state.js')
    shared = await connectRedisState({ url: options.redis, prefix: options.redisPrefix })
  }
  if (options.state !== undefined) {
    const { openStateFile } = await import('../persistence/open-state-file.js')
    const { digestGivenPets } = await import('../persistence/seeded-pets-identity.js')
    stateFile = await openStateFile(options.state, {
      seed: options.seed,
      pets: lastSeededId,
      given: givenPets && digestGivenPets(givenPets),
      ...(capsule === undefined ? {} : { givenBy: 'a --from capsule' }),
      onLockLost: (error) => {
        io.stderr(
          `error: lost the lock on state file ${options.state} (${error.message});` +
            ' stopping so that only one process writes it',
        )
        process.exit(1)
      },
    })
  }
  // Runtime keys are kept beside the pets (D22).
  const keyFile =
    options.state === undefined
      ? undefined
      : await (await import('../persistence/open-key-file.js')).openKeyFile(`${options.state}.keys.json`)
  // Masked with the secrets in force when read (D35).
  const secrets = () => sandbox.secrets()
  const requestLog = createRequestLog(options.keepRequests, secrets)
  const adminGate =
    options.adminToken === undefined
      ? undefined
      : createAdminGate({ token: options.adminToken, now: (): number => sandbox.clock.now() })
  // Each flag over the file's faults.
  const fromFile = options.faultsFile === undefined ? {} : await loadFaultsFile(options.faultsFile)
  const fileOperations = fromFile.operations ?? {}
  const faults = {
    ...fromFile,
    ...(options.latency ? { latency: options.latency } : {}),
    ...(options.errorRate === undefined ? {} : { errorRate: options.errorRate }),
    ...(options.errorKinds ? { kinds: options.errorKinds } : {}),
    ...(options.fault ? { operations: { ...fileOperations, ...options.fault } } : {}),
    ...(options.faultSeed === undefined ? {} : { seed: options.faultSeed }),
  }
  const sandbox: Sandbox = createSandbox({
    ...(capsule === undefined ? { seed: options.seed, pets: givenPets ?? options.pets } : { from: capsule }),
    sessions: {
      max: options.maxSessions,
      idleMs: options.sessionIdle,
      // A test that lost its session learns why.
      onDrop: (named, reason) => {
        // A key may be used as a session name (D35).
        const name = createMasker(secrets()).text(named)
        io.stdout(
          reason.kind === 'idle'
            ? `Session ${name} dropped: idle for ${formatDuration(reason.idleMs)} (--session-idle)`
            : `Session ${name} dropped: least recently used, over --max-sessions ${reason.max}`,
        )
      },
    },
    maxPets: options.maxPets,
    banAfter: options.banAfter,
    banSeconds: options.banSeconds,
    // The start-up world's instant (D34).
    ...(options.now === undefined ? {} : { startAt: options.now }),
    ...(keys ? { keys } : {}),
    ...(options.corsOrigin && !options.corsOrigin.includes('*') ? { corsOrigins: options.corsOrigin } : {}),
    deprecation: {
      ...(options.deprecatedAt === undefined ? {} : { deprecatedAt: options.deprecatedAt }),
      ...(options.sunset === undefined ? {} : { sunset: options.sunset }),
    },
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    ...(stateFile ? { storage: stateFile } : {}),
    ...(keyFile ? { keyStorage: keyFile } : {}),
    ...(shared ? { shared } : {}),
    requestLogSize: options.keepRequests,
    requestLog,
    ...(adminGate ? { adminGate } : {}),
    prefer: options.prefer === true,
    scenarios: {
      ...(customScenarios ? { custom: customScenarios } : {}),
      ...(options.scenario ? { keys: Object.fromEntries(options.scenario.map(({ key, name }) => [key, name])) } : {}),
    },
    // A --from capsule's faults stand otherwise.
    ...(Object.keys(faults).length === 0 ? {} : { faults }),
  })
  const logger = createRequestLogger(options.log, io.stdout, io.colour, Date.now, (text) =>
    createMasker(secrets()).text(text),
  )
  if (options.log !== 'off') {
    requestLog.watch(logger.answer)
    // Without --prefer the header changes nothing: said once (D30).
    if (options.prefer !== true) {
      const stop = requestLog.watch((entry) => {
        const prefer = entry.requestHeaders?.find((header) => header.name.toLowerCase() === 'prefer')
        if (prefer === undefined || !/\bcode\s*=/i.test(prefer.value)) return
        stop()
        logger.note(
          `${entry.method} ${entry.path} sent Prefer: ${prefer.value.slice(0, 80)}, which this sandbox ignores:` +
            ' start it with --prefer to honour Prefer: code=<status>',
        )
      })
    }
  }
  const trustProxy: TrustedProxies | undefined = options.trustProxy && {
    proxies: options.trustProxy,
    header: options.trustProxyHeader,
  }
  const server = await serveOverHttp({
    sandbox,
    serving: options,
    handlers: () => sandbox.originHandlers,
    requestLog,
    secrets,
    adminGate,
    version: io.version,
    pages: { demoKeys: keys === undefined, petsFrom: options.from ?? options.petsFile },
    trustProxy,
    // A refusal before the request is read names its address's quota (D24).
    refusalHeaders: async (address) => rateLimitHeaders(await sandbox.quota.ofAddress(address)),
  })
  const served: ServedSandbox = {
    url: server.url,
    close: async () => {
      await server.close()
      await Promise.all([stateFile?.close(), shared?.close()])
    },
  }
  onListening(served)
  // So /readyz can say 503 meanwhile (docs/cli.md#probes).
  const origin = server.url.replace(/\/v1$/, '')
  if (!sandbox.readiness().ready)
    io.stdout(`Seeding ${givenPets?.length ?? options.pets} pets; ${origin}/readyz answers 503 until done`)
  try {
    await sandbox.ready()
  } catch (error) {
    await server.close()
    await shared?.close()
    throw error
  }
  if (cluster.isWorker && cluster.worker?.id !== 1) {
    io.stdout(`Worker ${process.pid} serving ${server.url}`)
    return served
  }
  // Whoever waits for "Listening on" has read these lines too.
  io.stdout(
    [
      formatBanner({
        url: server.url,
        version: io.version,
        options,
        keys: sandbox.keys,
        showKeys: keys === undefined,
        inForce: describeInForce(await sandbox.state(), {
          admin: options.adminToken !== undefined,
          petsFrom: options.from ?? options.petsFile,
          origin,
        }),
        fromEnvironment: fromEnvironment(options.environment ?? {}),
      }),
      `Reference on ${origin}/reference`,
      `Sessions: X-Sandbox-Session, up to ${options.maxSessions},` +
        ` idle after ${formatDuration(options.sessionIdle)}${shared === undefined ? '' : ', shared by the replicas'}`,
      ...(stateFile === undefined ? [] : [stateFileLine(options.state!, stateFile)]),
      ...(shared === undefined
        ? []
        : [
            `Shared state: ${shared.where}, key prefix ${options.redisPrefix}` +
              `${stalled(shared.failoverBoundMs)}${noted(shared.detail?.())}`,
          ]),
      ...(cluster.isWorker ? [`${options.workers} worker processes serve this port`] : []),
    ].join('\n'),
  )
  return served
}

/** Lists which of start's options feed each thing in force. */
const IN_FORCE_OPTIONS: Record<InForceItem, ReadonlyArray<keyof StartOptions>> = {
  pets: ['pets', 'petsFile', 'seed'],
  clock: ['now'],
  scenarios: ['scenario', 'scenarios'],
  prefer: ['prefer'],
  faults: ['faultsFile', 'latency', 'errorRate', 'errorKinds', 'fault', 'faultSeed'],
  admin: ['adminToken'],
}

/** Returns the variables that set each thing in force. */
function fromEnvironment(environment: Readonly<Record<string, string>>): Partial<Record<InForceItem, string[]>> {
  const found: Partial<Record<InForceItem, string[]>> = {}
  for (const [item, names] of Object.entries(IN_FORCE_OPTIONS) as Array<
    [InForceItem, ReadonlyArray<keyof StartOptions>]
  >) {
    const variables = names.flatMap((name) => (environment[name] === undefined ? [] : [environment[name]]))
    if (variables.length > 0) found[item] = variables
  }
  return found
}

function stalled(boundMs: number | undefined): string {
  return boundMs === undefined ? '' : `; a master's failover stalls a request for at most ${formatDuration(boundMs)}`
}

function noted(detail: string | undefined): string {
  return detail === undefined ? '' : `; ${detail}`
}

function stateFileLine(path: string, file: StateFile): string {
  const torn = file.droppedTornLine
    ? '; dropped an incomplete last line (a write cut short by a crash, never acknowledged)'
    : ''
  return `State file ${path}: ${file.restored.length} created pet(s) restored${torn}`
}

/** Formats a duration as `--session-idle` takes it, in the largest whole unit (`1h`). */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`
  }
  return `${ms}ms`
}
