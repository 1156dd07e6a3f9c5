import { Command, Option } from 'commander'
import { createSandbox } from '../../core/sandbox/create-sandbox.js'
import { ConfigError } from '../../core/errors/config-error.js'
import { startServer, type RunningServer } from '../server/start-server.js'
import { createRequestLogger, type LogFormat } from './create-request-logger.js'
import { loadKeysFile } from '../options/load-keys-file.js'
import { formatBanner } from './format-banner.js'
import { openStateFile, type StateFile } from '../persistence/open-state-file.js'
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
    .addOption(new Option('--keep-requests <n>', 'answered requests the admin API keeps for reading').argParser(integerIn(0, 100_000)).default(100))
    // Internal, for tests that play slow clients or a stuck shutdown without waiting the real
    // limits out (src/node/server/server-limits.ts); hidden from --help.
    .addOption(new Option('--headers-timeout <ms>').argParser(integerIn(1, 3_600_000)).hideHelp())
    .addOption(new Option('--request-timeout <ms>').argParser(integerIn(1, 3_600_000)).hideHelp())
    .addOption(new Option('--keep-alive-timeout <ms>').argParser(integerIn(1, 3_600_000)).hideHelp())
    .addOption(new Option('--shutdown-grace <ms>').argParser(integerIn(0, 3_600_000)).hideHelp())
    .action(async (options: StartOptions) => {
      try {
        await start(options, io)
      } catch (error) {
        if (error instanceof ConfigError || isListenError(error)) {
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
  let closing = false
  const shutdown = () => {
    // A second signal means "now": give up on in-flight requests.
    if (closing) process.exit(1)
    closing = true
    if (server === undefined) process.exit(0)
    io.stdout('Shutting down: finishing in-flight requests')
    void server.close().then(() => stateFile?.close())
  }
  io.onSignal('SIGINT', shutdown)
  io.onSignal('SIGTERM', shutdown)

  const keys = options.keys === undefined ? undefined : await loadKeysFile(options.keys)
  if (options.state !== undefined) stateFile = await openStateFile(options.state, { seed: options.seed, pets: options.pets })
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
  await sandbox.ready()
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
  })
  // One write, so whoever waits for "Listening on" has read these lines too.
  io.stdout(
    [
      formatBanner({ url: server.url, version: io.version, options, keys: sandbox.keys, showKeys: keys === undefined, now: sandbox.clock.now() }),
      ...(options.adminToken === undefined ? [] : [`Admin API on ${server.url.replace(/\/v1$/, '')}/__sandbox/ (Authorization: Bearer <admin token>)`]),
      ...(stateFile === undefined ? [] : [`State file ${options.state}: ${stateFile.restored.length} created pet(s) restored`]),
    ].join('\n'),
  )
}

function isListenError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
}
