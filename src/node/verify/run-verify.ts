import { maskKey } from '../../core/auth/mask-key.js'
import { checkAuth } from './check-auth.js'
import { checkCountDown } from './check-count-down.js'
import { checkCreateThenGet } from './check-create-then-get.js'
import { checkGetPet } from './check-get-pet.js'
import { checkInvalidNewPets } from './check-invalid-new-pets.js'
import { checkInvalidParameters } from './check-invalid-parameters.js'
import { checkListing } from './check-listing.js'
import { createExchangeChecker } from './create-exchange-checker.js'
import { createPoliteClient } from './create-polite-client.js'
import { createPromiseLedger } from './create-promise-ledger.js'
import type { Scenario, ScenarioContext } from './scenario.js'
import { spendQuota } from './spend-quota.js'
import type { VerifyReport } from './verify-report.js'

export interface VerifyOptions {
  /** The API base, e.g. `https://staging.animal-store.example/v1`. */
  baseUrl: string
  key: string
  /** Whether createPet may be called (valid and invalid bodies). */
  writes: boolean
  /** Whether the key's window may be spent to see the 429 and the recovery. */
  spendQuota: boolean
  /** The most requests verify spends on a quota; a key with more left is not spent. */
  maxQuotaRequests: number
  /** Told before requests are sent: how many. */
  announce: (line: string) => void
  now?: () => number
  /** How verify waits out a Retry-After; tests pass one that moves a sandbox clock instead. */
  sleep?: (ms: number) => Promise<void>
  requestTimeoutMs?: number
}

const SCENARIOS: readonly Scenario[] = [
  checkAuth,
  checkListing,
  checkInvalidParameters,
  checkInvalidNewPets,
  checkCreateThenGet,
  checkGetPet,
  checkCountDown,
  spendQuota,
]

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
  const ledger = createPromiseLedger(options.key)
  const checker = createExchangeChecker(new URL(baseUrl).pathname)
  await checker.warm()
  const client = createPoliteClient({
    baseUrl,
    key: options.key,
    now,
    sleep,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    onWait: (seconds, exchange) =>
      options.announce(
        `429 for ${exchange.method} ${exchange.path}${exchange.query.size > 0 ? `?${exchange.query}` : ''}: waiting ${seconds} s as its Retry-After asks, then sending it again`,
      ),
    onExchange: async (exchange) => {
      for (const violation of await checker.check(exchange)) ledger.fail(violation.promise, violation.expected, violation.exchange)
    },
  })
  const allowed = (scenario: Scenario) => scenario.needs === undefined || (scenario.needs === 'writes' ? options.writes : options.spendQuota)
  const enabled = SCENARIOS.filter(allowed)
  for (const scenario of SCENARIOS.filter((candidate) => !allowed(candidate))) {
    for (const promise of scenario.promises) ledger.skip(promise, OPTED_OUT[scenario.needs!])
  }
  const planned = enabled.reduce((sum, scenario) => sum + (scenario.needs === 'quota' ? 0 : scenario.requests), 0)
  options.announce(
    `Sending ${planned} requests to ${baseUrl}, one at a time${options.spendQuota ? ", then spending the key's quota (counted before it starts)" : ''}; ` +
      'a 429 is waited out as its Retry-After says and the request sent again.',
  )
  const context: ScenarioContext = {
    client,
    fail: ledger.fail,
    skip: ledger.skip,
    announce: options.announce,
    maxQuotaRequests: options.maxQuotaRequests,
    sleep,
  }
  for (const scenario of enabled) await scenario.run(context)
  return ledger.report({ baseUrl, key: maskKey(options.key), startedAt: new Date(started).toISOString(), durationMs: now() - started, requests: client.sent() })
}
