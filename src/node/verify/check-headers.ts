import type { Exchange } from './exchange.js'

type Found = Array<{ promise: string; expected: string }>

/** How far a backend's clock may lag ours before its X-RateLimit-Reset counts as past. */
const CLOCK_SKEW_MS = 5_000

/** The sunset of getPet (spec, Versioning): 5 December 2030. */
const SUNSET_MS = Date.parse('2030-12-05T00:00:00Z')
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/

/** The header promises: rate-limit headers and their arithmetic, Retry-After, and the deprecation of getPet. */
export function checkHeaders(exchange: Exchange, operationId: string | undefined, basePath: string): Found {
  const found: Found = []
  const { headers } = exchange
  const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((name) => !/^\d+$/.test(headers[name] ?? ''))
  if (missing.length > 0) found.push({ promise: 'rate-limit-headers', expected: `integer ${missing.join(', ')}` })
  else if (Number(headers['x-ratelimit-remaining']) > Number(headers['x-ratelimit-limit'])) {
    found.push({ promise: 'rate-limit-headers', expected: 'X-RateLimit-Remaining no greater than X-RateLimit-Limit' })
  }
  const reset = headers['x-ratelimit-reset']
  if (reset !== undefined && /^\d+$/.test(reset) && Number(reset) * 1000 + CLOCK_SKEW_MS <= exchange.receivedAt) {
    found.push({ promise: 'reset-in-future', expected: `X-RateLimit-Reset after ${Math.floor(exchange.receivedAt / 1000)}, got ${reset}` })
  }
  if (exchange.status === 429 && !/^[1-9]\d*$/.test(headers['retry-after'] ?? '')) {
    found.push({ promise: 'quota-429-and-recovery', expected: 'a 429 with Retry-After in whole seconds, at least 1' })
  }
  if (operationId === 'getPet') {
    const wrong: string[] = []
    if (!/^@\d+$/.test(headers.deprecation ?? '')) wrong.push('Deprecation: @<unix seconds>')
    const sunset = headers.sunset ?? ''
    if (!IMF_FIXDATE.test(sunset) || Date.parse(sunset) !== SUNSET_MS) wrong.push('Sunset: Thu, 05 Dec 2030 00:00:00 GMT')
    if (!successorLinkOk(headers.link, exchange.url, basePath)) wrong.push(`Link: <${basePath}/pets>; rel="successor-version"`)
    if (wrong.length > 0) found.push({ promise: 'deprecation-headers', expected: wrong.join('; ') })
  } else if (operationId !== undefined && (headers.deprecation !== undefined || headers.sunset !== undefined)) {
    found.push({ promise: 'deprecation-headers', expected: `no Deprecation or Sunset on ${operationId}` })
  }
  return found
}

function successorLinkOk(link: string | undefined, url: string, basePath: string): boolean {
  const match = /<([^>]*)>\s*;[^,]*rel="?successor-version"?/.exec(link ?? '')
  if (match === null) return false
  try {
    return new URL(match[1]!, url).pathname === `${basePath}/pets`
  } catch {
    return false
  }
}
