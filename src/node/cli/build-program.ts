import cluster from 'node:cluster'
import { Command, Option } from 'commander'
import { ConfigError } from '../../core/errors/config-error.js'
import { runWorkers } from './run-workers.js'
import { DEFAULT_REDIS_PREFIX } from '../redis/redis-keys.js'
import { parseErrorKinds, parseLatency, parseOperationFault, parseRate } from './parse-fault-options.js'
import {
  integerIn,
  parseDuration,
  parseInstant,
  parseMaxSessions,
  parseOrigin,
  parsePets,
  parsePort,
  parsePositiveNumber,
  parseScenario,
  parseSeed,
} from '../options/parse-options.js'
import type { ProgramIo } from '../options/program-io.js'
import { addServerLimitOptions } from '../options/server-limit-options.js'
import { addVerifyCommand } from '../verify/add-verify-command.js'
import { addProxyCommand } from '../proxy/add-proxy-command.js'
import { addLearnCommand } from '../learn/add-learn-command.js'
import { describeListenError } from './describe-listen-error.js'
import { describeConfigError } from './describe-config-error.js'
import type { StartOptions } from './start-sandbox.js'
import { parseForwardingHeader, parseMaxPets, parseTrustedProxy } from '../options/parse-operational-options.js'
import { FORWARDING_HEADERS } from '../server/create-client-address.js'
import { DEFAULT_MAX_PETS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from '../../core/sandbox/resolve-options.js'
import { DEFAULT_ERROR_KINDS, FAULT_KINDS } from '../../core/faults/fault-config.js'
import { BUILT_IN_SCENARIOS } from '../../core/scenarios/scenario-config.js'

// Re-exported: it lives beside the option parsers, for verify and proxy.
export type { ProgramIo }

/** Builds the commander program, which tests drive directly. */
export function buildProgram(io: ProgramIo): Command {
  const program = new Command('petstore-sandbox')
    .description('A stateful, in-memory stand-in for the Animal Store API (v1) staging environment.')
    .version(io.version)
    .configureOutput({ writeOut: (text) => io.stdout(text.trimEnd()), writeErr: (text) => io.stderr(text.trimEnd()) })
    .showHelpAfterError('(run petstore-sandbox start --help for the options)')

  // `run` takes start's options, then the command: options after the command are the command's.
  program.enablePositionalOptions()
  const start = program
    .command('start')
    .description('Serve the API over HTTP under /v1, seeded with generated pets.')
    .addOption(
      new Option('-p, --port <n>', 'port to listen on; 0 picks a free one (or PORT)')
        .argParser(parsePort)
        .default(4010)
        .env('PETSTORE_SANDBOX_PORT'),
    )
    .addOption(new Option('--host <addr>', 'address to bind').default('127.0.0.1').env('PETSTORE_SANDBOX_HOST'))
    .addOption(
      new Option('--seed <n>', 'seed of the generated pets')
        .argParser(parseSeed)
        .default(1)
        .env('PETSTORE_SANDBOX_SEED'),
    )
    .addOption(
      new Option('--pets <n>', 'number of seeded pets, 0 to 100000')
        .argParser(parsePets)
        .default(50)
        .env('PETSTORE_SANDBOX_PETS'),
    )
    .addOption(
      new Option(
        '--pets-file <file>',
        'JSON array of pets ({ "name", "categoryId", "status"?, "id"? }) instead of generated ones',
      ).env('PETSTORE_SANDBOX_PETS_FILE'),
    )
    .addOption(
      new Option('--keys <file>', 'JSON keys file: { "keys": [ { "key", "plan", "perMinute"?, "perDay"? } ] }').env(
        'PETSTORE_SANDBOX_KEYS',
      ),
    )
    .addOption(
      new Option('--log <format>', 'request log')
        .choices(['pretty', 'json', 'off'])
        .default('pretty')
        .env('PETSTORE_SANDBOX_LOG'),
    )
    .addOption(
      new Option('--now <instant>', 'start the sandbox clock at this ISO 8601 instant')
        .argParser(parseInstant)
        .env('PETSTORE_SANDBOX_NOW'),
    )
    .addOption(
      new Option('--ban-after <n>', 'refused requests in one window before a temporary ban')
        .argParser(integerIn(0, 1_000_000))
        .default(10)
        .env('PETSTORE_SANDBOX_BAN_AFTER'),
    )
    .addOption(
      new Option('--ban-seconds <n>', 'length of a temporary ban in seconds')
        .argParser(parsePositiveNumber)
        .default(900)
        .env('PETSTORE_SANDBOX_BAN_SECONDS'),
    )
    .addOption(
      new Option('--cors-origin <origin...>', 'origins allowed by CORS (default: any)')
        .argParser(parseOrigin)
        .env('PETSTORE_SANDBOX_CORS_ORIGIN'),
    )
    .addOption(
      new Option('--deprecated-at <instant>', 'when getPet was deprecated (default: from the contract)')
        .argParser(parseInstant)
        .env('PETSTORE_SANDBOX_DEPRECATED_AT'),
    )
    .addOption(
      new Option('--sunset <instant>', 'when getPet goes away (default: from the contract)')
        .argParser(parseInstant)
        .env('PETSTORE_SANDBOX_SUNSET'),
    )
    .addOption(
      new Option('--admin-token <token>', 'enable the admin API under /__sandbox/ with this bearer token').env(
        'PETSTORE_SANDBOX_ADMIN_TOKEN',
      ),
    )
    .addOption(
      new Option(
        '--state <file>',
        'keep created pets in this file across restarts (created if missing; one process per file)',
      ).env('PETSTORE_SANDBOX_STATE'),
    )
    .addOption(
      new Option('--max-pets <n>', 'most pets stored, seeded ones included; creates beyond it get 507')
        .argParser(parseMaxPets)
        .default(DEFAULT_MAX_PETS)
        .env('PETSTORE_SANDBOX_MAX_PETS'),
    )
    .addOption(
      new Option(
        '--trust-proxy <address...>',
        'proxies (addresses or CIDR ranges) whose --trust-proxy-header names the client',
      )
        .argParser(parseTrustedProxy)
        .env('PETSTORE_SANDBOX_TRUST_PROXY'),
    )
    .addOption(
      new Option(
        '--trust-proxy-header <name>',
        `the header those proxies write the client in: ${FORWARDING_HEADERS.join(' or ')}`,
      )
        .argParser(parseForwardingHeader)
        .default(FORWARDING_HEADERS[0])
        .env('PETSTORE_SANDBOX_TRUST_PROXY_HEADER'),
    )
    .addOption(
      new Option('--latency <ms>', 'inject latency: ms, or a range such as 100-400')
        .argParser(parseLatency)
        .env('PETSTORE_SANDBOX_LATENCY'),
    )
    .addOption(
      new Option('--error-rate <rate>', 'inject failures into this share of requests, 0 to 1')
        .argParser(parseRate)
        .env('PETSTORE_SANDBOX_ERROR_RATE'),
    )
    .addOption(
      new Option(
        '--error-kinds <kinds>',
        `injected failures: comma-separated ${FAULT_KINDS.join(', ')} (default: ${DEFAULT_ERROR_KINDS.join(',')})`,
      )
        .argParser(parseErrorKinds)
        .env('PETSTORE_SANDBOX_ERROR_KINDS'),
    )
    .addOption(
      new Option(
        '--fault <op:settings>',
        'per-operation faults, e.g. createPet:error-rate=0.5,latency=100-300 (repeatable)',
      )
        .argParser(parseOperationFault)
        .env('PETSTORE_SANDBOX_FAULT'),
    )
    .addOption(
      new Option(
        '--scenario <key=name>',
        `put a key in a scenario: ${BUILT_IN_SCENARIOS.join(', ')}, or one of --scenarios (repeatable)`,
      )
        .argParser(parseScenario)
        .env('PETSTORE_SANDBOX_SCENARIO'),
    )
    .addOption(
      new Option(
        '--scenarios <file>',
        'JSON file of custom scenarios: { "scenarios": { "<name>": { "latency"?, "errorRate"?, "kinds"?,' +
          ' "status"?, "operations"? } } }',
      ).env('PETSTORE_SANDBOX_SCENARIOS'),
    )
    .addOption(
      new Option(
        '--prefer',
        "honour Prefer: code=<status> (Prism's convention): answer with that status when the operation may",
      ).env('PETSTORE_SANDBOX_PREFER'),
    )
    .addOption(
      new Option(
        '--faults-file <file>',
        'JSON file of faults, as PUT /__sandbox/faults takes them (petstore-sandbox weather prints one);' +
          ' flags override it',
      ).env('PETSTORE_SANDBOX_FAULTS_FILE'),
    )
    .addOption(
      new Option('--fault-seed <n>', 'seed of the fault draws (default: --seed)')
        .argParser(parseSeed)
        .env('PETSTORE_SANDBOX_FAULT_SEED'),
    )
    .addOption(
      new Option('--redis <url>', 'share the state with every process started with this Redis URL and prefix').env(
        'PETSTORE_SANDBOX_REDIS_URL',
      ),
    )
    .addOption(
      new Option('--redis-prefix <prefix>', "prefix of the shared state's Redis keys")
        .default(DEFAULT_REDIS_PREFIX)
        .env('PETSTORE_SANDBOX_REDIS_PREFIX'),
    )
    .addOption(
      new Option('--workers <n>', 'serve the port from n processes sharing the state (requires --redis)')
        .argParser(integerIn(1, 64))
        .default(1)
        .env('PETSTORE_SANDBOX_WORKERS'),
    )
    .addOption(
      new Option(
        '--max-sessions <n>',
        'named sessions (X-Sandbox-Session) kept at most; beyond it the least recently used is dropped',
      )
        .argParser(parseMaxSessions)
        .default(DEFAULT_MAX_SESSIONS)
        .env('PETSTORE_SANDBOX_MAX_SESSIONS'),
    )
    .addOption(
      new Option(
        '--session-idle <duration>',
        "a named session unused this long (by the default session's clock) is dropped: 90s, 30m, 2h, or ms",
      )
        .argParser(parseDuration)
        .default(DEFAULT_SESSION_IDLE_MS, '1h')
        .env('PETSTORE_SANDBOX_SESSION_IDLE'),
    )
    .addOption(
      new Option(
        '--from <capsule>',
        'start from a capsule (GET /__sandbox/sessions/{name}/capsule) or a recording (a .har file):' +
          ' the default session and every fresh one',
      ).env('PETSTORE_SANDBOX_FROM'),
    )
    .addOption(
      new Option('--keep-requests <n>', 'answered requests the admin API keeps for reading')
        .argParser(integerIn(0, 100_000))
        .default(100)
        .env('PETSTORE_SANDBOX_KEEP_REQUESTS'),
    )
    .action((options: StartOptions, command: Command) =>
      reportingErrors(options, command, async () => {
        if (options.workers > 1 && cluster.isPrimary) {
          if (options.redis === undefined)
            throw new ConfigError('--workers requires --redis: the workers share their state through it')
          // One line for an unreachable Redis, not one per worker.
          const { connectRedisState } = await import('../redis/connect-redis-state.js')
          await (await connectRedisState({ url: options.redis, prefix: options.redisPrefix })).close()
          await runWorkers(options.workers, io)
        } else {
          // One command pays nothing for the others' modules.
          const { startSandbox } = await import('./start-sandbox.js')
          await startSandbox(options, io)
        }
      }),
    )

  addServerLimitOptions(start, { fromEnvironment: true })

  const run = program
    .command('run')
    .description(
      'Start the sandbox, run a command once it is ready (PETSTORE_SANDBOX_URL in its environment), then stop with it.',
    )
    .usage('[start options] -- <command> [args...]')
    .argument('<command...>', "the command and its arguments; its exit status is run's")
    .passThroughOptions()
    .action((argv: string[], options: StartOptions, command: Command) =>
      reportingErrors(options, command, async () => {
        if (options.workers > 1)
          throw new ConfigError('--workers is for start: run serves its command from one process')
        const { runCommand } = await import('./run-command.js')
        await runCommand(options, argv, io)
      }),
    )
  for (const option of start.options) run.addOption(option)

  /** Runs a command over start's options; bad options and a port in use are one line. */
  async function reportingErrors(options: StartOptions, command: Command, work: () => Promise<void>): Promise<void> {
    try {
      // The banner names them: a stale variable surprises.
      options.environment = Object.fromEntries(
        command.options.flatMap((option) =>
          option.envVar !== undefined && command.getOptionValueSource(option.attributeName()) === 'env'
            ? [[option.attributeName(), option.envVar]]
            : [],
        ),
      )
      if (options.petsFile !== undefined && command.getOptionValueSource('pets') !== 'default') {
        throw new ConfigError('--pets and --pets-file cannot be combined: the file says which pets there are')
      }
      for (const pets of ['pets', 'petsFile'] as const) {
        if (
          options.from !== undefined &&
          options[pets] !== undefined &&
          command.getOptionValueSource(pets) !== 'default'
        ) {
          throw new ConfigError(
            `--from and --${pets === 'pets' ? 'pets' : 'pets-file'} cannot be combined:` +
              ' the capsule says which pets there are',
          )
        }
      }
      await work()
    } catch (error) {
      const listen = describeListenError(error, options.host, options.port)
      if (error instanceof ConfigError || listen !== undefined) {
        // The options were understood: no usage hint.
        program.showHelpAfterError(false)
        const message =
          listen ??
          describeConfigError(error as ConfigError, options.scenario, command.getOptionValueSource('scenario'))
        program.error(`error: ${message}`, { exitCode: 1 })
      }
      throw error
    }
  }

  addVerifyCommand(program, io)
  addProxyCommand(program, io)
  addLearnCommand(program, io)
  return program
}
