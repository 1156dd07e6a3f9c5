/** One failure of a promise, as the reports show it: keys masked. */
export interface FailureDetail {
  request: string
  got: string
  expected: string
}

export interface PromiseOutcome {
  id: string
  title: string
  outcome: 'passed' | 'failed' | 'skipped'
  /** Why it was skipped. */
  reason?: string
  /** The first few failures, and how many there were in all. */
  failures: FailureDetail[]
  failureCount: number
}

/** What a verify run found, whatever format shows it. */
export interface VerifyReport {
  baseUrl: string
  /** The key, masked. */
  key: string
  startedAt: string
  durationMs: number
  requests: number
  promises: PromiseOutcome[]
  passed: number
  failed: number
  skipped: number
}
