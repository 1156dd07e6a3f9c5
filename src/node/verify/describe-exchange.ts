import { maskKey } from '../../core/auth/mask-key.js'
import { redactKeys } from '../../core/auth/redact-keys.js'
import type { Exchange } from './exchange.js'

// Headers the promises speak of, shown in a failure; other headers would only bury them.
const SHOWN_HEADERS = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'deprecation', 'sunset', 'link']
const BODY_EXCERPT = 160

/** The request and the answer of an exchange as one line each, with the key masked wherever it shows. */
export function describeExchange(exchange: Exchange, key: string): { request: string; got: string } {
  const credential = exchange.credential === 'key' ? `key ${maskKey(key)}` : exchange.credential === 'none' ? 'no key' : 'a wrong key'
  const sent = exchange.requestBody === undefined ? '' : ` ${JSON.stringify(exchange.requestBody)}`
  const headers = SHOWN_HEADERS.filter((name) => exchange.headers[name] !== undefined).map((name) => `${name}: ${exchange.headers[name]}`)
  const body = exchange.bodyText.length > BODY_EXCERPT ? `${exchange.bodyText.slice(0, BODY_EXCERPT)}...` : exchange.bodyText
  return {
    request: redactKeys(`${exchange.method} ${exchange.url}${sent} (${credential})`, [key]),
    got: redactKeys([String(exchange.status), ...headers, body === '' ? '(no body)' : body].join(' | '), [key]),
  }
}
