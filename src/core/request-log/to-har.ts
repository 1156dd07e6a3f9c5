import { maskAuthorization, maskSecret } from '../auth/mask-key.js'
import { redactKeys } from '../auth/redact-keys.js'
import { redactUrl } from '../auth/redact-url.js'
import type { KeptExchange } from './create-request-log.js'

/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/), as much of it as the sandbox writes. */
export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    entries: HarEntry[]
  }
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: []
    headers: HarHeader[]
    queryString: HarHeader[]
    postData?: { mimeType: string; text: string }
    headersSize: -1
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: []
    headers: HarHeader[]
    content: { size: number; mimeType: string; text?: string; comment?: string }
    redirectURL: ''
    headersSize: -1
    bodySize: number
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  /** The request log's id of the exchange, the masked key, and the scenario or fault that shaped it. */
  _id?: string
  _key: string
  _scenario?: string
  _fault?: string
  comment?: string
}

interface HarHeader {
  name: string
  value: string
}

export interface HarOptions {
  /** The keys in force: each is masked wherever it appears, as the request log masks it. */
  keys: readonly string[]
  /** The admin token, masked wherever it appears, without even a prefix. */
  adminToken?: string | undefined
  /** The creator's version: the served contract's. */
  version: string
  /** Request headers that are the sandbox's own, not the client's (the transport's note of its address): left out. */
  internalHeaders?: readonly string[]
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
}

/**
 * The request log's exchanges as a HAR 1.2 document, for a browser's network panel or Playwright's
 * `routeFromHAR`. Masked as the log is: the Authorization header shows the masked key, and every
 * configured key and the admin token are masked wherever else they appear (URL, headers, bodies).
 * Dropped connections have no answer to replay and are left out; so are bodies over the log's
 * limit, whose size a comment gives.
 *
 * @example
 * const har = toHar(sandbox log records, { secrets: keys, version: '1.0.0' })
 */
export function toHar(records: readonly KeptExchange[], { keys, adminToken, version, internalHeaders = [] }: HarOptions): Har {
  const mask = (text: string) => {
    const masked = redactKeys(text, keys)
    return adminToken !== undefined && masked.includes(adminToken) ? masked.replaceAll(adminToken, maskSecret(adminToken)) : masked
  }
  const key = (authorization: string | null) => {
    if (authorization === null) return '-'
    return adminToken !== undefined && authorization.includes(adminToken) ? maskSecret(adminToken) : maskAuthorization(authorization)
  }
  const entries: HarEntry[] = []
  for (const record of records) {
    if (record.status === 0) continue
    const exchange = record.exchange
    const url = `${record.url.origin}${mask(redactUrl(record.url.pathname + record.url.search, keys))}`
    const query = [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
    const requestHeaders =
      exchange === undefined ? [] : harHeaders(exchange.requestHeaders, mask, key).filter((header) => !internalHeaders.includes(header.name))
    const responseHeaders = exchange === undefined ? [] : harHeaders(exchange.responseHeaders, mask, key)
    const requestText = exchange?.requestBody === undefined ? undefined : mask(exchange.requestBody)
    const responseText = exchange?.responseBody === undefined || record.method === 'HEAD' ? undefined : mask(exchange.responseBody)
    const omitted = exchange?.omitted
    const mimeType = exchange?.responseHeaders.get('content-type') ?? (responseText === undefined ? 'x-unknown' : 'application/json; charset=utf-8')
    // A length that no longer matches a masked body would make a replay cut it short.
    const replayable = responseText !== undefined ? responseHeaders.filter((header) => header.name.toLowerCase() !== 'content-length') : responseHeaders
    const responseSize = omitted?.response ?? (responseText === undefined ? 0 : new TextEncoder().encode(responseText).byteLength)
    entries.push({
      startedDateTime: new Date(record.time).toISOString(),
      time: record.durationMs,
      request: {
        method: record.method,
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: query,
        ...(requestText === undefined ? {} : { postData: { mimeType: exchange?.requestHeaders.get('content-type') ?? 'application/json', text: requestText } }),
        headersSize: -1,
        bodySize: omitted?.request ?? (requestText === undefined ? 0 : new TextEncoder().encode(requestText).byteLength),
      },
      response: {
        status: record.status,
        statusText: STATUS_TEXT[record.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: replayable,
        content: {
          size: responseSize,
          mimeType,
          ...(responseText === undefined ? {} : { text: responseText }),
          ...(omitted?.response === undefined ? {} : { comment: `body of ${omitted.response} characters left out (over the request log's limit)` }),
        },
        redirectURL: '',
        headersSize: -1,
        bodySize: responseSize,
      },
      cache: {},
      timings: { send: 0, wait: record.durationMs, receive: 0 },
      ...(record.id === undefined ? {} : { _id: record.id }),
      _key: key(record.authorization),
      ...(record.scenario === undefined ? {} : { _scenario: record.scenario }),
      ...(record.fault === undefined ? {} : { _fault: record.fault }),
      ...(exchange === undefined ? { comment: 'headers and bodies no longer kept (older than the last exchanges kept)' } : {}),
    })
  }
  return { log: { version: '1.2', creator: { name: 'petstore-sandbox, Animal Store API', version }, entries } }
}

/** The headers as sent; `Authorization` as `Bearer sand…#1a2b`, the scheme and the masked credential. */
function harHeaders(headers: Headers, mask: (text: string) => string, key: (authorization: string) => string): HarHeader[] {
  const out: HarHeader[] = []
  headers.forEach((value, name) => {
    out.push({ name, value: name === 'authorization' ? `${value.trim().split(/\s+/)[0] ?? ''} ${key(value)}`.trim() : mask(value) })
  })
  return out
}
