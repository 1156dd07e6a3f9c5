import { type Command, Option } from 'commander'
import type { ProgramIo } from '../options/program-io.js'
import { integerIn, parseBaseUrl, parsePets, parsePort, parseSeed } from '../options/parse-options.js'
import { ConfigError } from '../../core/errors/config-error.js'
import type { LogFormat } from '../../core/request-log/create-request-logger.js'
import type { Sandbox } from '../../core/sandbox/sandbox.js'
import type { RunningServer } from '../server/start-server.js'
import { SOURCE_HEADER } from '../../core/request-log/create-request-log.js'
import { stopOnSignals } from '../server/stop-on-signals.js'
import { addServerLimitOptions } from '../options/server-limit-options.js'
import type { ServingOptions } from '../server/server-limits.js'
import type { Shadow } from './create-shadow.js'

interface ProxyCommandOptions extends ServingOptions {
  upstream: string
  fallback: boolean
  upstreamTimeout: number
  log: LogFormat
  adminToken?: string
  keys?: string
  faultsFile?: string
  seed: number
  pets: number
  keepRequests: number
  shadow: boolean
  shadowReport?: string
}

/** Adds `proxy --upstream <url>`: forwards /v1 to a real backend and watches it keep the promises. */
export function addProxyCommand(program: Command, io: ProgramIo): void {
  const proxy = program
    .command('proxy')
    .description(
      "Forward /v1 to a real backend, check each answer against the sandbox's promises, " +
        'and optionally let the sandbox answer what the backend cannot.',
    )
    .showHelpAfterError('(run petstore-sandbox proxy --help for the options)')
    .addOption(
      new Option('--upstream <url>', 'the real API base, e.g. https://staging.animal-store.example/v1')
        .argParser(parseBaseUrl)
        .makeOptionMandatory(),
    )
    .addOption(new Option('-p, --port <n>', 'port to listen on; 0 picks a free one').argParser(parsePort).default(4010))
    .addOption(new Option('--host <addr>', 'address to bind').default('127.0.0.1'))
    .addOption(
      new Option(
        '--fallback',
        'let the sandbox answer when the upstream is unreachable, times out,' +
          ' or answers 404/501 for an operation of the contract',
      ).default(false),
    )
    .addOption(
      new Option('--upstream-timeout <ms>', 'time the upstream has to answer')
        .argParser(integerIn(1, 600_000))
        .default(10_000),
    )
    .addOption(
      new Option('--log <format>', 'request and violation log; keys are always masked')
        .choices(['pretty', 'json', 'off'])
        .default('pretty'),
    )
    .addOption(
      new Option(
        '--admin-token <token>',
        'enable GET /__sandbox/proxy and the sandbox admin API with this bearer token',
      ).env('PETSTORE_SANDBOX_ADMIN_TOKEN'),
    )
    .addOption(new Option('--keys <file>', "the fallback sandbox's keys file (give it the keys your clients send)"))
    .addOption(
      new Option(
        '--faults-file <file>',
        "JSON file of the fallback sandbox's faults, as PUT /__sandbox/faults takes them",
      ),
    )
    .addOption(new Option('--seed <n>', "seed of the fallback sandbox's pets").argParser(parseSeed).default(1))
    .addOption(new Option('--pets <n>', "number of the fallback sandbox's pets").argParser(parsePets).default(50))
    .addOption(
      new Option('--keep-requests <n>', 'answered requests the admin API and the dashboard keep for reading')
        .argParser(integerIn(0, 100_000))
        .default(100),
    )
    .addOption(
      new Option(
        '--shadow',
        'answer every exchange also from a world learned from the upstream, and report where the answers differ ' +
          '(GET /__sandbox/shadow)',
      ).default(false),
    )
    .addOption(
      new Option(
        '--shadow-report <file>',
        'with --shadow: write the drift report at exit, as JSON to <file> and as HTML beside it (<file>.html)',
      ),
    )
    .action(async (options: ProxyCommandOptions, command: Command) => {
      let server: RunningServer | undefined
      let shadow: Shadow | undefined
      stopOnSignals(io, () => server, { onClosed: () => writeShadowReport(shadow, options.shadowReport, io) })
      try {
        // Loaded when proxy runs, so that `start` does not pay for them (BENCHMARKS.md, start-up).
        const [
          { loadKeysFile },
          { loadFaultsFile },
          { createSandbox },
          { createRequestLogger },
          { createProxy },
          { createProxyStats },
          { createRequestLog },
          { createAdminGate },
          { serveOverHttp },
        ] = await Promise.all([
          import('../options/load-keys-file.js'),
          import('../options/load-faults-file.js'),
          import('../../core/sandbox/create-sandbox.js'),
          import('../../core/request-log/create-request-logger.js'),
          import('./create-proxy.js'),
          import('./create-proxy-stats.js'),
          import('../../core/request-log/create-request-log.js'),
          import('../../core/admin/create-admin-gate.js'),
          import('../server/serve-over-http.js'),
        ])
        const keys = options.keys === undefined ? undefined : await loadKeysFile(options.keys)
        const faults = options.faultsFile === undefined ? undefined : await loadFaultsFile(options.faultsFile)
        if (options.shadowReport !== undefined && !options.shadow)
          throw new ConfigError("--shadow-report needs --shadow: it writes the shadow's report")
        if (options.shadow) {
          const [{ createShadow }, { createExchangeChecker }] = await Promise.all([
            import('./create-shadow.js'),
            import('../verify/create-exchange-checker.js'),
          ])
          const checker = createExchangeChecker(new URL(options.upstream).pathname.replace(/\/+$/, ''))
          await checker.warm()
          shadow = createShadow({ checker })
        }
        // Logs every answer in one request log, each saying who gave it, as under `start`.
        const secrets = () => sandbox.secrets()
        const requestLog = createRequestLog(options.keepRequests, secrets, { source: 'sandbox' })
        const adminGate =
          options.adminToken === undefined
            ? undefined
            : createAdminGate({ token: options.adminToken, now: (): number => sandbox.clock.now() })
        const stats = createProxyStats({
          upstream: options.upstream.replace(/\/+$/, ''),
          fallback: options.fallback,
          upstreamTimeoutMs: options.upstreamTimeout,
        })
        const logger = createRequestLogger(options.log, io.stdout, io.colour)
        if (options.log !== 'off') {
          requestLog.watch(logger.answer)
          stats.watch(logger)
        }
        const sandbox: Sandbox = createSandbox({
          seed: options.seed,
          pets: options.pets,
          ...(keys ? { keys } : {}),
          ...(faults ? { faults } : {}),
          ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
          ...(adminGate ? { adminGate } : {}),
          requestLogSize: options.keepRequests,
          requestLog,
          // The admin API shows the proxy's counts at /__sandbox/proxy.
          proxyState: stats.snapshot,
          ...(shadow === undefined ? {} : { shadowReport: shadow.report }),
        })
        await sandbox.ready()
        // Serves on `start`'s server, every answer ending through the sandbox's tail.
        server = await serveOverHttp({
          sandbox,
          serving: options,
          handlers: (tail) =>
            createProxy({
              upstream: options.upstream,
              fallback: options.fallback,
              upstreamTimeoutMs: options.upstreamTimeout,
              sandboxHandlers: sandbox.originHandlers,
              stats,
              tail,
              now: Date.now,
              secrets,
              shadow,
            }),
          requestLog,
          secrets,
          adminGate,
          version: io.version,
          // The sandbox's demo keys are not offered: /v1 goes to the upstream, which does not know them.
          pages: { demoKeys: false, proxy: true },
          // Marks the proxy's own answers `sandbox`, with no X-RateLimit-*: it cannot know the upstream's quota.
          answerHeaders: { [SOURCE_HEADER]: 'sandbox' },
        })
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (
          error instanceof ConfigError ||
          code === 'EADDRINUSE' ||
          code === 'EACCES' ||
          code === 'EADDRNOTAVAIL' ||
          code === 'ENOTFOUND'
        ) {
          command.error(`error: ${(error as Error).message}`, { exitCode: 1 })
        }
        throw error
      }
      const origin = server.url.replace(/\/v1$/, '')
      io.stdout(
        [
          `petstore-sandbox ${io.version} proxy: /v1 forwarded to ${options.upstream} ` +
            `(fallback ${options.fallback ? 'on' : 'off'}, upstream timeout ${options.upstreamTimeout} ms)`,
          `Listening on ${server.url}`,
          `Reference on ${origin}/reference`,
          ...(options.adminToken === undefined
            ? []
            : [
                `Violations counted at ${origin}/__sandbox/proxy (Authorization: Bearer <admin token>)`,
                ...(shadow === undefined ? [] : [`Drift reported at ${origin}/__sandbox/shadow`]),
                `Dashboard on ${origin}/__sandbox/`,
              ]),
        ].join('\n'),
      )
    })
  // The server's limits, hidden as under `start`.
  addServerLimitOptions(proxy, { fromEnvironment: false })
}

/** Writes the shadow's report at exit (`--shadow-report`), JSON and HTML, once every queued exchange is compared. */
async function writeShadowReport(shadow: Shadow | undefined, file: string | undefined, io: ProgramIo): Promise<void> {
  if (shadow === undefined || file === undefined) return
  await shadow.idle()
  const [{ writeFile }, { formatShadowHtml }] = await Promise.all([
    import('node:fs/promises'),
    import('../verify/format-report.js'),
  ])
  const report = shadow.report()
  try {
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`)
    await writeFile(`${file}.html`, formatShadowHtml(report))
    io.stdout(`Shadow report written to ${file} and ${file}.html`)
  } catch (error) {
    io.stderr(
      `error: could not write the shadow report to ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    )
    process.exitCode = 1
  }
}
