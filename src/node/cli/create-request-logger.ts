import type { ExchangeRecord } from '../server/create-request-listener.js'
import { redactUrl } from '../../core/auth/redact-url.js'
import { maskAuthorization, maskSecret } from '../../core/auth/mask-key.js'

export type LogFormat = 'pretty' | 'json' | 'off'

/**
 * One line per answered request, with keys masked; colour only on a terminal. `keys` (the
 * configured ones) are masked wherever they appear in the URL too.
 */
export function createRequestLogger(format: LogFormat, write: (line: string) => void, colour: boolean, keys: readonly string[] = []) {
  if (format === 'off') return undefined
  return (record: ExchangeRecord): void => {
    const url = redactUrl(record.url, keys)
    const key = record.url.startsWith('/__sandbox') ? adminKey(record) : maskAuthorization(record.authorization)
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

/**
 * Not even a prefix of the admin token: it opens more than any key. A refused call shows the
 * fingerprint of what it presented, so repeated guesses from one client can be told apart.
 */
function adminKey({ status, authorization }: ExchangeRecord): string {
  if (status !== 401 && status !== 429) return 'admin'
  const presented = authorization?.trim().split(/\s+/).pop()
  return presented === undefined || presented === '' ? 'refused:-' : `refused:${maskSecret(presented)}`
}

function statusColour(status: number): string {
  if (status >= 500 || status === 0) return '\u001b[31m'
  if (status >= 400) return '\u001b[33m'
  return '\u001b[32m'
}
