import { type Command, Option } from 'commander'
import type { ProgramIo } from '../options/program-io.js'
import { integerIn, parseBaseUrl } from '../options/parse-options.js'

interface VerifyCommandOptions {
  key: string
  writes: boolean
  spendQuota: boolean
  maxQuotaRequests: number
  strict: boolean
  format: 'terminal' | 'json' | 'junit' | 'html'
  timeout: number
}

/** Adds `verify <baseUrl>`: exit 1 when a spec promise fails (a decision, with --strict), 2 when none answered. */
export function addVerifyCommand(program: Command, io: ProgramIo): void {
  program
    .command('verify')
    .description(
      "Check that a server claiming to implement the API keeps the spec's promises, " +
        "and where it takes the sandbox's decisions differently.",
    )
    .showHelpAfterError('(run petstore-sandbox verify --help for the options)')
    .argument('<baseUrl>', 'the API base, e.g. https://staging.animal-store.example/v1', parseBaseUrl)
    .addOption(
      new Option('--key <key>', 'API key to send (Authorization: Bearer <key>)')
        .env('PETSTORE_SANDBOX_VERIFY_KEY')
        .makeOptionMandatory(),
    )
    .addOption(new Option('--no-writes', 'do not call createPet (skips the promises that need it)'))
    .addOption(
      new Option('--spend-quota', "spend the key's window to check the 429, Retry-After and recovery").default(false),
    )
    .addOption(
      new Option('--max-quota-requests <n>', 'the most requests --spend-quota may send')
        .argParser(integerIn(1, 100_000))
        .default(1000),
    )
    .addOption(
      new Option('--strict', "fail on the sandbox's decisions too, not only on the spec's promises").default(false),
    )
    .addOption(
      new Option('--format <format>', 'report format')
        .choices(['terminal', 'json', 'junit', 'html'])
        .default('terminal'),
    )
    .addOption(
      new Option('--timeout <ms>', 'time to wait for each answer').argParser(integerIn(1, 600_000)).default(30_000),
    )
    .action(async (baseUrl: string, options: VerifyCommandOptions) => {
      // Keeps stdout one document when the report is for a machine.
      const announce = options.format === 'terminal' ? io.stdout : io.stderr
      // Loaded when verify runs, so that `start` does not pay for them (BENCHMARKS.md, start-up).
      const [{ runVerify }, formats, { VerifyConnectionError }] = await Promise.all([
        import('./run-verify.js'),
        import('./format-report.js'),
        import('./client.js'),
      ])
      try {
        const report = await runVerify({
          baseUrl,
          key: options.key,
          writes: options.writes,
          spendQuota: options.spendQuota,
          maxQuotaRequests: options.maxQuotaRequests,
          strict: options.strict,
          requestTimeoutMs: options.timeout,
          announce,
        })
        if (options.format === 'json') io.stdout(JSON.stringify(report, null, 2))
        else if (options.format === 'junit') io.stdout(formats.formatJunitReport(report))
        else if (options.format === 'html') io.stdout(formats.formatHtmlReport(report))
        else io.stdout(formats.formatTerminalReport(report, io.colour))
        if (report.failed > 0) process.exitCode = 1
      } catch (error) {
        if (!(error instanceof VerifyConnectionError)) throw error
        // Nothing was judged, which CI should tell apart from drift.
        io.stderr(`error: ${error.message}`)
        process.exitCode = 2
      }
    })
}
