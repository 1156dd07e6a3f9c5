import { maskKey } from '../../core/auth/mask-key.js'
import { createMasker } from '../../core/auth/create-masker.js'
import { createPoliteClient } from './client.js'
import { createExchangeChecker, type JudgedExchange } from './create-exchange-checker.js'
import { createPromiseLedger, diagnose, type VerifyReport } from './report.js'
import { SCENARIOS, type Scenario, type ScenarioContext } from './scenarios.js'

export interface VerifyOptions {
  baseUrl: string
  key: string
  /** Allows createPet calls. */
  writes: boolean
  /** Allows spending the key's window to see the 429 and the recovery. */
  spendQuota: boolean
  /** A key with more requests left is not spent. */
  maxQuotaRequests: number
  /** Fails the run on a decision taken differently rather than warn. */
  strict?: boolean
  /** Told how many requests will be sent. */
  announce: (line: string) => void
  now?: () => number
  /** Waits out a Retry-After; tests pass one that moves a sandbox clock. */
  sleep?: (ms: number) => Promise<void>
  requestTimeoutMs?: number
}

const OPTED_OUT = {
  writes: 'opted out with --no-writes',
  quota: "opted out: run with --spend-quota to spend the key's window and check the 429",
}

/** Runs every scenario against `baseUrl`, one request at a time, and reports each promise. */
export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const started = now()
  const ledger = createPromiseLedger(options.key, options.strict ?? false)
  const checker = createExchangeChecker(new URL(baseUrl).pathname.replace(/\/+$/, ''))
  await checker.warm()
  const exchanges: JudgedExchange[] = []
  const client = createPoliteClient({
    baseUrl,
    key: options.key,
    now,
    sleep,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    onWait: (seconds, exchange) =>
      options.announce(
        `429 for ${exchange.method} ${exchange.path}${exchange.query.size > 0 ? `?${exchange.query}` : ''}:` +
          ` waiting ${seconds} s as its Retry-After asks, then sending it again`,
      ),
    onExchange: async (exchange) => {
      exchanges.push(exchange)
      for (const violation of await checker.check(exchange))
        ledger.fail(violation.promise, violation.expected, violation.exchange)
    },
  })
  const allowed = (scenario: Scenario) =>
    scenario.needs === undefined || (scenario.needs === 'writes' ? options.writes : options.spendQuota)
  const enabled = SCENARIOS.filter(allowed)
  for (const scenario of SCENARIOS.filter((candidate) => !allowed(candidate))) {
    for (const promise of scenario.promises) ledger.skip(promise, OPTED_OUT[scenario.needs!])
  }
  const planned = enabled.reduce((sum, scenario) => sum + (scenario.needs === 'quota' ? 0 : scenario.requests), 0)
  options.announce(
    `Sending ${planned} requests to ${baseUrl},` +
      ` one at a time${options.spendQuota ? ", then spending the key's quota (counted before it starts)" : ''}; ` +
      'a 429 is waited out as its Retry-After says and the request sent again.',
  )
  const context: ScenarioContext = {
    client,
    fail: ledger.fail,
    skip: ledger.skip,
    announce: options.announce,
    maxQuotaRequests: options.maxQuotaRequests,
    sleep,
    now,
  }
  for (const scenario of enabled) await scenario.run(context)
  const diagnosis = diagnose(exchanges, { baseUrl, spentQuota: context.quotaSpent === true }).map(
    createMasker({ keys: [options.key] }).text,
  )
  return ledger.report({
    baseUrl,
    key: maskKey(options.key),
    startedAt: new Date(started).toISOString(),
    durationMs: now() - started,
    requests: client.sent(),
    diagnosis,
  })
}
