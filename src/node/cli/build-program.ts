import cluster from 'node:cluster'
import { Command, Option } from 'commander'
import { createSandbox } from '../../core/sandbox/create-sandbox.js'
import { ConfigError } from '../../core/errors/config-error.js'
import { startServer, type RunningServer } from '../server/start-server.js'
import { createRequestLogger, type LogFormat } from './create-request-logger.js'
import { loadKeysFile } from '../options/load-keys-file.js'
import { formatBanner } from './format-banner.js'
import { runWorkers } from './run-workers.js'
import type { StateFile } from '../persistence/open-state-file.js'
import { openKeyFile } from '../persistence/open-key-file.js'
import { createPagesListener } from '../pages/create-pages-listener.js'
import { DEFAULT_REDIS_PREFIX } from '../redis/default-redis-prefix.js'
import type { SharedState } from '../../core/state/shared-state.js'
import type { FaultKind, LatencyRange, OperationFaults } from '../../core/faults/fault-config.js'
import { parseErrorKinds, parseLatency, parseOperationFault, parseRate } from './parse-fault-options.js'
import { parseInstant, parseOrigin, parsePets, parsePort, parsePositiveNumber, parseSeed, integerIn } from '../options/parse-options.js'
import type { ProgramIo } from '../options/program-io.js'
import { addVerifyCommand } from '../verify/add-verify-command.js'
import { addProxyCommand } from '../proxy/add-proxy-command.js'
import { fromEnvironment } from './env-var-of.js'
import { describeListenError } from './describe-listen-error.js'
import { watchParent } from './watch-parent.js'
import { watchShellWake } from './watch-shell-wake.js'
import { parseMaxPets, parseTrustedProxy } from '../options/parse-operational-options.js'
import { DEFAULT_MAX_PETS } from '../../core/sandbox/resolve-options.js'

// The commands' shared IO lives beside the shared option parsers, where verify and proxy read it too.
export type { ProgramIo }

interface StartOptions {
  port: number
  host: string
  seed: number
  pets: number
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
  faultSeed?: number
  keepRequests: number
  maxPets: number
  trustProxy?: string[]
  headersTimeout?: number
  requestTimeout?: number
  keepAliveTimeout?: number
  shutdownGrace?: number
  redis?: string
  redisPrefix: string
  workers: number
}

/**
 * The commander program. Tests drive it directly; `bin/petstore-sandbox.js` only calls `main`.
 */
export function buildProgram(io: ProgramIo): Command {
  const program = new Command('petstore-sandbox')
    .description('A stateful, in-memory stand-in for the Animal Store API (v1) staging environment.')
    .version(io.version)
    .configureOutput({ writeOut: (text) => io.stdout(text.trimEnd()), writeErr: (text) => io.stderr(text.trimEnd()) })
    .showHelpAfterError('(run petstore-sandbox start --help for the options)')

  fromEnvironment(program.command('start'))
    .description('Serve the API over HTTP under /v1, seeded with generated pets.')
    .addOption(new Option('-p, --port <n>', 'port to listen on; 0 picks a free one (or PORT)').argParser(parsePort).default(4010))
    .addOption(new Option('--host <addr>', 'address to bind').default('127.0.0.1'))
    .addOption(new Option('--seed <n>', 'seed of the generated pets').argParser(parseSeed).default(1))
    .addOption(new Option('--pets <n>', 'number of seeded pets, 0 to 100000').argParser(parsePets).default(50))
    .addOption(new Option('--keys <file>', 'JSON keys file: { "keys": [ { "key", "plan", "perMinute"?, "perDay"? } ] }'))
    .addOption(new Option('--log <format>', 'request log').choices(['pretty', 'json', 'off']).default('pretty'))
    .addOption(new Option('--now <instant>', 'start the sandbox clock at this ISO 8601 instant').argParser(parseInstant))
    .addOption(new Option('--ban-after <n>', 'refused requests in one window before a temporary ban').argParser(integerIn(0, 1_000_000)).default(10))
    .addOption(new Option('--ban-seconds <n>', 'length of a temporary ban in seconds').argParser(parsePositiveNumber).default(900))
    .addOption(new Option('--cors-origin <origin...>', 'origins allowed by CORS (default: any)').argParser(parseOrigin))
    .addOption(new Option('--deprecated-at <instant>', 'when getPet was deprecated (default: from the contract)').argParser(parseInstant))
    .addOption(new Option('--sunset <instant>', 'when getPet goes away (default: from the contract)').argParser(parseInstant))
    .addOption(new Option('--admin-token <token>', 'enable the admin API under /__sandbox/ with this bearer token'))
    .addOption(new Option('--state <file>', 'keep created pets in this file across restarts (created if missing; one process per file)'))
    .addOption(
      new Option('--max-pets <n>', 'most pets stored, seeded ones included; creates beyond it get 507').argParser(parseMaxPets).default(DEFAULT_MAX_PETS),
    )
    .addOption(
      new Option('--trust-proxy <address...>', 'proxies (addresses or CIDR ranges) whose Forwarded / X-Forwarded-For name the client').argParser(
        parseTrustedProxy,
      ),
    )
    .addOption(new Option('--latency <ms>', 'inject latency: ms, or a range such as 100-400').argParser(parseLatency))
    .addOption(new Option('--error-rate <rate>', 'inject failures into this share of requests, 0 to 1').argParser(parseRate))
    .addOption(new Option('--error-kinds <kinds>', 'injected failures: comma-separated 500, 503, drop (default: 500,503)').argParser(parseErrorKinds))
    .addOption(
      new Option('--fault <op:settings>', 'per-operation faults, e.g. createPet:error-rate=0.5,latency=100-300 (repeatable)').argParser(parseOperationFault),
    )
    .addOption(new Option('--fault-seed <n>', 'seed of the fault draws (default: --seed)').argParser(parseSeed))
    .addOption(new Option('--redis <url>', 'share the state with every process started with this Redis URL and prefix').env('PETSTORE_SANDBOX_REDIS_URL'))
    .addOption(new Option('--redis-prefix <prefix>', "prefix of the shared state's Redis keys").default(DEFAULT_REDIS_PREFIX))
    .addOption(new Option('--workers <n>', 'serve the port from n processes sharing the state (requires --redis)').argParser(integerIn(1, 64)).default(1))
    .addOption(new Option('--keep-requests <n>', 'answered requests the admin API keeps for reading').argParser(integerIn(0, 100_000)).default(100))
    // Internal, for tests that play slow clients or a stuck shutdown without waiting the real
    // limits out (src/node/server/server-limits.ts); hidden from --help.
    .addOption(new Option('--headers-timeout <ms>').argParser(integerIn(1, 3_600_000)).hideHelp())
    .addOption(new Option('--request-timeout <ms>').argParser(integerIn(1, 3_600_000)).hideHelp())
    .addOption(new Option('--keep-alive-timeout <ms>').argParser(integerIn(1, 3_600_000)).hideHelp())
    .addOption(new Option('--shutdown-grace <ms>').argParser(integerIn(0, 3_600_000)).hideHelp())
    .action(async (options: StartOptions) => {
      try {
        if (options.workers > 1 && cluster.isPrimary) {
          if (options.redis === undefined) throw new ConfigError('--workers requires --redis: the workers share their state through it')
          // Checked once here, so an unreachable Redis is one line rather than one per worker.
          const { connectRedisState } = await import('../redis/connect-redis-state.js')
          await (await connectRedisState({ url: options.redis, prefix: options.redisPrefix })).close()
          await runWorkers(options.workers, io)
        } else {
          await start(options, io)
        }
      } catch (error) {
        const listen = describeListenError(error, options.host, options.port)
        if (error instanceof ConfigError || listen !== undefined) {
          // The options were understood; what failed is named in one line, without the usage hint.
          program.showHelpAfterError(false)
          program.error(`error: ${listen ?? (error as Error).message}`, { exitCode: 1 })
        }
        throw error
      }
    })
  addVerifyCommand(program, io)
  addProxyCommand(program, io)
  return program
}

async function start(options: StartOptions, io: ProgramIo): Promise<void> {
  // Signal handlers come first: a supervisor may stop us as soon as it reads "Listening on".
  let server: RunningServer | undefined
  let stateFile: StateFile | undefined
  let shared: SharedState | undefined
  let closing = false
  const shutdown = () => {
    // A second signal means "now": give up on in-flight requests.
    if (closing) process.exit(1)
    closing = true
    if (server === undefined) process.exit(0)
    io.stdout('Shutting down: finishing in-flight requests')
    void server
      .close()
      .then(() => Promise.all([stateFile?.close(), shared?.close()]))
      // A worker's channel to the primary would keep it alive: let go of it once all is closed.
      .then(() => cluster.worker?.disconnect())
  }
  io.onSignal('SIGINT', shutdown)
  io.onSignal('SIGTERM', shutdown)
  // npx does not pass its signals on (docs/cli.md#stopping): a sandbox whose parent is gone, or
  // whose npm shell was sent a SIGINT, stops as if signalled. These are not a second signal.
  const stopAsked = () => {
    if (!closing) shutdown()
  }
  watchParent(stopAsked)
  watchShellWake(stopAsked)

  const keys = options.keys === undefined ? undefined : await loadKeysFile(options.keys)
  if (options.redis !== undefined) {
    // The clock of a shared sandbox belongs to all its processes: a restarted one must not move it.
    if (options.now !== undefined) throw new ConfigError('--now cannot be combined with --redis: move the shared clock through the admin API')
    if (options.state !== undefined) throw new ConfigError('--state cannot be combined with --redis: the pets live in Redis')
    // Loaded only when asked for, as is the state file's lock: a plain start pays for neither.
    const { connectRedisState } = await import('../redis/connect-redis-state.js')
    shared = await connectRedisState({ url: options.redis, prefix: options.redisPrefix })
  }
  if (options.state !== undefined) {
    const { openStateFile } = await import('../persistence/open-state-file.js')
    stateFile = await openStateFile(options.state, {
      seed: options.seed,
      pets: options.pets,
      onLockLost: (error) => {
        io.stderr(`error: lost the lock on state file ${options.state} (${error.message}); stopping so that only one process writes it`)
        process.exit(1)
      },
    })
  }
  // Keys added, re-planned or revoked at runtime are kept beside the pets (docs/decisions.md#d22).
  const keyFile = options.state === undefined ? undefined : await openKeyFile(`${options.state}.keys.json`)
  const sandbox = createSandbox({
    seed: options.seed,
    pets: options.pets,
    maxPets: options.maxPets,
    banAfter: options.banAfter,
    banSeconds: options.banSeconds,
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
    faults: {
      ...(options.latency ? { latency: options.latency } : {}),
      ...(options.errorRate === undefined ? {} : { errorRate: options.errorRate }),
      ...(options.errorKinds ? { kinds: options.errorKinds } : {}),
      ...(options.fault ? { operations: options.fault } : {}),
      ...(options.faultSeed === undefined ? {} : { seed: options.faultSeed }),
    },
  })
  if (options.now !== undefined) sandbox.clock.set(options.now)
  const log = createRequestLogger(
    options.log,
    io.stdout,
    io.colour,
    sandbox.keys.map((apiKey) => apiKey.key),
  )
  server = await startServer({
    handlers: sandbox.originHandlers,
    port: options.port,
    host: options.host,
    ...(log ? { onExchange: log } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    limits: {
      ...(options.headersTimeout === undefined ? {} : { headersTimeoutMs: options.headersTimeout }),
      ...(options.requestTimeout === undefined ? {} : { requestTimeoutMs: options.requestTimeout }),
      ...(options.keepAliveTimeout === undefined ? {} : { keepAliveTimeoutMs: options.keepAliveTimeout }),
      ...(options.shutdownGrace === undefined ? {} : { shutdownGraceMs: options.shutdownGrace }),
    },
    pages: (origin) => createPagesListener({ sandbox, version: io.version, origin, demoKeys: keys === undefined, adminToken: options.adminToken }),
  })
  // Listening before the seed is in, so that /readyz can say 503 meanwhile (docs/cli.md#probes).
  const origin = server.url.replace(/\/v1$/, '')
  if (!sandbox.readiness().ready) io.stdout(`Seeding ${options.pets} pets; ${origin}/readyz answers 503 until done`)
  try {
    await sandbox.ready()
  } catch (error) {
    await server.close()
    await shared?.close()
    throw error
  }
  // The first worker speaks for all of them; the others only say that they serve.
  if (cluster.isWorker && cluster.worker?.id !== 1) {
    io.stdout(`Worker ${process.pid} serving ${server.url}`)
    return
  }
  // One write, so whoever waits for "Listening on" has read these lines too.
  io.stdout(
    [
      formatBanner({ url: server.url, version: io.version, options, keys: sandbox.keys, showKeys: keys === undefined, now: sandbox.clock.now() }),
      `Reference on ${origin}/reference`,
      ...(options.adminToken === undefined ? [] : [`Admin API and dashboard on ${origin}/__sandbox/ (Authorization: Bearer <admin token>)`]),
      ...(stateFile === undefined ? [] : [stateFileLine(options.state!, stateFile)]),
      ...(shared === undefined ? [] : [`Shared state: ${shared.where}, key prefix ${options.redisPrefix}`]),
      ...(cluster.isWorker ? [`${options.workers} worker processes serve this port`] : []),
    ].join('\n'),
  )
}

function stateFileLine(path: string, file: StateFile): string {
  const torn = file.droppedTornLine ? '; dropped an incomplete last line (a write cut short by a crash, never acknowledged)' : ''
  return `State file ${path}: ${file.restored.length} created pet(s) restored${torn}`
}
