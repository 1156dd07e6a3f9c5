/** Names a read to run with the next rate-limit decision when it allows (BENCHMARKS.md, Redis); opaque elsewhere. */
export interface ReadAhead {
  readonly readAhead: true
}
