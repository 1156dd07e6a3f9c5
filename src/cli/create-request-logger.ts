import type { ExchangeRecord } from '../server/create-request-listener.js'
import { redactKeys } from '../keys/redact-keys.js'
import { maskAuthorization } from './mask-key.js'

export type LogFormat = 'pretty' | 'json' | 'off'

// Query parameters that look like credentials are masked too: a client may put a key there even
// though the sandbox never accepts it from the query (D17).
const SECRET_PARAMS = /([?&](?:api[_-]?key|key|token|access_token)=)[^&]*/gi

/**
 * One line per answered request, with keys masked; colour only on a terminal. `keys` (the
 * configured ones) are masked wherever they appear in the URL too.
 */
export function createRequestLogger(format: LogFormat, write: (line: string) => void, colour: boolean, keys: readonly string[] = []) {
  if (format === 'off') return undefined
  return (record: ExchangeRecord): void => {
    const url = redactKeys(record.url.replace(SECRET_PARAMS, '$1…'), keys)
    const key = maskAuthorization(record.authorization)
    const ms = Math.round(record.durationMs * 10) / 10
    if (format === 'json') {
      write(JSON.stringify({ time: new Date().toISOString(), method: record.method, url, status: record.status, ms, key }))
      return
    }
    const status = colour ? `${statusColour(record.status)}${record.status}\u001b[0m` : String(record.status)
    write(`${record.method} ${url} ${status} ${ms}ms key=${key}`)
  }
}

function statusColour(status: number): string {
  if (status >= 500) return '\u001b[31m'
  if (status >= 400) return '\u001b[33m'
  return '\u001b[32m'
}
