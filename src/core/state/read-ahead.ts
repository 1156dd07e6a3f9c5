/** Names a read to run with the next rate-limit decision (BENCHMARKS.md, Redis). */
export interface ReadAhead {
  readonly readAhead: true
}
