import type { ShownViolation } from './create-proxy-stats.js'

/** The formats of `start`'s request log, which the proxy's log follows. */
export type ProxyLogFormat = 'pretty' | 'json' | 'off'

/** One answered request, keys already masked. */
export interface ProxyLogRecord {
  method: string
  path: string
  status: number
  durationMs: number
  key: string
  source: 'upstream' | 'sandbox'
}

/**
 * The proxy's log: one line per answer (like `start`'s request log, plus where the answer came
 * from) and one per broken promise; `pretty` or `json` lines. Callers mask keys before this sees them.
 */
export function createProxyLogger(format: ProxyLogFormat, write: (line: string) => void, colour: boolean, now: () => number) {
  const time = () => new Date(now()).toISOString()
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text)
  return {
    answer(record: ProxyLogRecord): void {
      if (format === 'off') return
      const ms = Math.round(record.durationMs * 10) / 10
      if (format === 'json')
        write(JSON.stringify({ time: time(), method: record.method, url: record.path, status: record.status, ms, key: record.key, source: record.source }))
      else
        write(
          `${record.method} ${record.path} ${paint(record.status >= 400 ? '33' : '32', String(record.status))} ${ms}ms key=${record.key} source=${record.source}`,
        )
    },
    /** Something that kept the proxy from checking an answer; the answer itself was sent. */
    problem(message: string): void {
      if (format === 'json') write(JSON.stringify({ time: time(), problem: message }))
      else if (format === 'pretty') write(`${paint('33', 'problem')} ${message}`)
    },
    violation(violation: ShownViolation): void {
      if (format === 'off') return
      if (format === 'json') write(JSON.stringify({ ...violation, violation: violation.promise }))
      else
        write(
          `${paint('31', 'violation')} ${violation.promise}: expected ${violation.expected} (${violation.method} ${violation.path} ${violation.status} key=${violation.key})`,
        )
    },
  }
}
