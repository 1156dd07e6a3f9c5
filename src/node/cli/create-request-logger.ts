import type { ExchangeRecord } from '../server/create-request-listener.js'
import { redactKeys } from '../../core/auth/redact-keys.js'
import { maskAuthorization, maskUrl } from '../../core/auth/mask-key.js'

export type LogFormat = 'pretty' | 'json' | 'off'

/**
 * One line per answered request, with keys masked; colour only on a terminal. `keys` (the
 * configured ones) are masked wherever they appear in the URL too.
 */
export function createRequestLogger(format: LogFormat, write: (line: string) => void, colour: boolean, keys: readonly string[] = []) {
  if (format === 'off') return undefined
  return (record: ExchangeRecord): void => {
    const url = redactKeys(maskUrl(record.url), keys)
    // Not even a prefix of the admin token: it opens more than any key.
    const key = record.url.startsWith('/__sandbox') ? 'admin' : maskAuthorization(record.authorization)
    const ms = Math.round(record.durationMs * 10) / 10
    if (format === 'json') {
      write(JSON.stringify({ time: new Date().toISOString(), method: record.method, url, status: record.status, ms, key }))
      return
    }
    // Status 0: an injected dropped connection, which has no HTTP status.
    const text = record.status === 0 ? 'dropped' : String(record.status)
    const status = colour ? `${statusColour(record.status)}${text}\u001b[0m` : text
    write(`${record.method} ${url} ${status} ${ms}ms key=${key}`)
  }
}

function statusColour(status: number): string {
  if (status >= 500 || status === 0) return '\u001b[31m'
  if (status >= 400) return '\u001b[33m'
  return '\u001b[32m'
}
