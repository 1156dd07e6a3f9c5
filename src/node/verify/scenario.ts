import type { PoliteClient } from './create-polite-client.js'
import type { Exchange } from './exchange.js'
import type { PromiseDefinition } from './verify-promises.js'

/** What a scenario may do: send, judge, and hand what it learnt to later scenarios. */
export interface ScenarioContext {
  client: PoliteClient
  /** Records a broken promise with the exchange that showed it. */
  fail(promise: string, expected: string, exchange: Exchange): void
  skip(promise: string, reason: string): void
  /** Tells the user something before requests they were not told about are sent. */
  announce(line: string): void
  maxQuotaRequests: number
  sleep: (ms: number) => Promise<void>
  /** The id of a pet the listing showed, for getPet. */
  knownPetId?: number
}

/** A sequence of requests that checks the promises it names. */
export interface Scenario {
  promises: string[]
  /** How many requests it sends when nothing is retried; the quota scenario says more as it learns. */
  requests: number
  needs?: PromiseDefinition['needs']
  run(context: ScenarioContext): Promise<void>
}
