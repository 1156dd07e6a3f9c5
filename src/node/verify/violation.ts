import type { Exchange } from './exchange.js'

/** A broken promise: which one, what was wrong, and the exchange that showed it. */
export interface Violation {
  promise: string
  expected: string
  exchange: Exchange
}
