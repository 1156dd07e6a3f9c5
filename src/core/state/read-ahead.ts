/**
 * Names a read a shared state's store asks its rate limiter to run with the next decision, in the
 * same round trip and only when that decision allows (BENCHMARKS.md, the Redis section); opaque
 * to every other part.
 */
export interface ReadAhead {
  readonly readAhead: true
}
