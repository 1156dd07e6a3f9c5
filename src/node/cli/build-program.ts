import cluster from 'node:cluster'
import { Command, Option } from 'commander'
import { createSandbox } from '../../core/sandbox/create-sandbox.js'
import { ConfigError } from '../../core/errors/config-error.js'
import { startServer, type RunningServer } from '../server/start-server.js'
import { createRequestLogger, type LogFormat } from './create-request-logger.js'
import { loadKeysFile } from '../options/load-keys-file.js'
import { formatBanner } from './format-banner.js'
import { runWorkers } from './run-workers.js'
import { openStateFile, type StateFile } from '../persistence/open-state-file.js'
import { openKeyFile } from '../persistence/open-key-file.js'
import { createPagesListener } from '../pages/create-pages-listener.js'
import { connectRedisState, DEFAULT_REDIS_PREFIX } from '../redis/connect-redis-state.js'
import type { SharedState } from '../../core/state/shared-state.js'
import type { FaultKind, LatencyRange, OperationFaults } from '../../core/faults/fault-config.js'
import { parseErrorKinds, parseLatency, parseOperationFault, parseRate } from './parse-fault-options.js'
import { parseInstant, parseOrigin, parsePets, parsePort, parsePositiveNumber, parseSeed, integerIn } from '../options/parse-options.js'
import type { ProgramIo } from '../options/program-io.js'
import { addVerifyCommand } from '../verify/add-verify-command.js'
import { addProxyCommand } from '../proxy/add-proxy-command.js'

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

  program
    .command('start')
    .description('Serve the API over HTTP under /v1, seeded with generated pets.')
    .addOption(new Option('-p, --port <n>', 'port to listen on; 0 picks a free one').env('PORT').argParser(parsePort).default(4010))
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
    .addOption(new Option('--admin-token <token>', 'enable the admin API under /__sandbox/ with this bearer token').env('PETSTORE_SANDBOX_ADMIN_TOKEN'))
    .addOption(new Option('--state <file>', 'keep created pets in this file across restarts (created if missing)'))
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
          await (await connectRedisState({ url: options.redis, prefix: options.redisPrefix })).close()
          await runWorkers(options.workers, io)
        } else {
          await start(options, io)
        }
      } catch (error) {
        if (error instanceof ConfigError || isListenError(error)) {
          // The options were understood; what failed is named in one line, without the usage hint.
          program.showHelpAfterError(false)
          program.error(`error: ${(error as Error).message}`, { exitCode: 1 })
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

  const keys = options.keys === undefined ? undefined : await loadKeysFile(options.keys)
  if (options.redis !== undefined) {
    // The clock of a shared sandbox belongs to all its processes: a restarted one must not move it.
    if (options.now !== undefined) throw new ConfigError('--now cannot be combined with --redis: move the shared clock through the admin API')
    if (options.state !== undefined) throw new ConfigError('--state cannot be combined with --redis: the pets live in Redis')
    shared = await connectRedisState({ url: options.redis, prefix: options.redisPrefix })
  }
  if (options.state !== undefined) stateFile = await openStateFile(options.state, { seed: options.seed, pets: options.pets })
  // Keys added, re-planned or revoked at runtime are kept beside the pets (docs/decisions.md#d22).
  const keyFile = options.state === undefined ? undefined : await openKeyFile(`${options.state}.keys.json`)
  const sandbox = createSandbox({
    seed: options.seed,
    pets: options.pets,
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
  try {
    await sandbox.ready()
  } catch (error) {
    await shared?.close()
    throw error
  }
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
    limits: {
      ...(options.headersTimeout === undefined ? {} : { headersTimeoutMs: options.headersTimeout }),
      ...(options.requestTimeout === undefined ? {} : { requestTimeoutMs: options.requestTimeout }),
      ...(options.keepAliveTimeout === undefined ? {} : { keepAliveTimeoutMs: options.keepAliveTimeout }),
      ...(options.shutdownGrace === undefined ? {} : { shutdownGraceMs: options.shutdownGrace }),
    },
    pages: (origin) => createPagesListener({ sandbox, version: io.version, origin, demoKeys: keys === undefined, adminToken: options.adminToken }),
  })
  // The first worker speaks for all of them; the others only say that they serve.
  if (cluster.isWorker && cluster.worker?.id !== 1) {
    io.stdout(`Worker ${process.pid} serving ${server.url}`)
    return
  }
  // One write, so whoever waits for "Listening on" has read these lines too.
  io.stdout(
    [
      formatBanner({ url: server.url, version: io.version, options, keys: sandbox.keys, showKeys: keys === undefined, now: sandbox.clock.now() }),
      `Reference on ${server.url.replace(/\/v1$/, '')}/reference`,
      ...(options.adminToken === undefined
        ? []
        : [`Admin API and dashboard on ${server.url.replace(/\/v1$/, '')}/__sandbox/ (Authorization: Bearer <admin token>)`]),
      ...(stateFile === undefined ? [] : [`State file ${options.state}: ${stateFile.restored.length} created pet(s) restored`]),
      ...(shared === undefined ? [] : [`Shared state: ${shared.where}, key prefix ${options.redisPrefix}`]),
      ...(cluster.isWorker ? [`${options.workers} worker processes serve this port`] : []),
    ].join('\n'),
  )
}

function isListenError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
}
