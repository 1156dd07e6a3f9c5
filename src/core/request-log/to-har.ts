import { createMasker, type Secrets } from '../auth/create-masker.js'
import type { KeptExchange, LoggedHeader, LogSelection } from './create-request-log.js'

/** Holds a HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/). */
export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    /** Written empty, as Firefox's importer reads it unchecked. */
    pages: []
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
  /** Lists the entry under Chrome's Fetch/XHR rather than as a script. */
  _resourceType: 'fetch'
  /** Carries the log's id, key and marks. */
  _id?: string
  _key: string
  _scenario?: string
  _forced?: number
  _fault?: string
  _session?: string
  comment?: string
}

interface HarHeader {
  name: string
  value: string
}

/** Selects the entry `id`, or the log's selection (D36). */
export type HarSelection = LogSelection & { id?: string | undefined }

export interface HarOptions {
  /** Masks these wherever they appear (D35). */
  secrets: Secrets
  version: string
  /** Leaves out the sandbox's own request headers. */
  internalHeaders?: readonly string[]
  /** Gives the origin of entries without bodies. */
  origin?: string | undefined
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

/** Writes log entries as HAR 1.2, masked (D35), for a network panel or `routeFromHAR`. */
export function toHar(exchanges: Iterable<KeptExchange>, options: HarOptions): Har {
  return harDocument([...toHarEntries(exchanges, options)], options.version)
}

function harDocument(entries: HarEntry[], version: string): Har {
  return {
    log: { version: '1.2', creator: { name: 'petstore-sandbox, Animal Store API', version }, pages: [], entries },
  }
}

/** Makes each entry as read, skipping dropped connections and non-URLs. */
function* toHarEntries(
  exchanges: Iterable<KeptExchange>,
  { secrets, internalHeaders = [], origin = 'http://localhost' }: HarOptions,
): Generator<HarEntry> {
  // The entries, and so the query, are masked already (D35).
  const mask = createMasker(secrets).text
  const internal = new Set(internalHeaders.map((name) => name.toLowerCase()))
  for (const { entry, bodies } of exchanges) {
    const url = `${bodies?.origin ?? origin}${mask(entry.path)}`
    if (entry.status === 0 || !URL.canParse(url)) continue
    const query = [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
    const requestHeaders = harHeaders(entry.requestHeaders, mask).filter(
      (header) => !internal.has(header.name.toLowerCase()),
    )
    const responseHeaders = harHeaders(entry.responseHeaders, mask)
    const requestText = bodies?.requestBody === undefined ? undefined : mask(bodies.requestBody)
    const responseText =
      bodies?.responseBody === undefined || entry.method === 'HEAD' ? undefined : mask(bodies.responseBody)
    const omitted = bodies?.omitted
    const mimeType =
      headerOf(responseHeaders, 'content-type') ??
      (responseText === undefined ? 'x-unknown' : 'application/json; charset=utf-8')
    // A masked body may not match its length, cutting a replay short.
    const replayable =
      responseText !== undefined
        ? responseHeaders.filter((header) => header.name.toLowerCase() !== 'content-length')
        : responseHeaders
    const responseSize = omitted?.response ?? (responseText === undefined ? 0 : utf8Length(responseText))
    yield {
      startedDateTime: entry.time,
      time: entry.durationMs,
      request: {
        method: entry.method,
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: query,
        ...(requestText === undefined
          ? {}
          : {
              postData: { mimeType: headerOf(requestHeaders, 'content-type') ?? 'application/json', text: requestText },
            }),
        headersSize: -1,
        bodySize: omitted?.request ?? (requestText === undefined ? 0 : utf8Length(requestText)),
      },
      response: {
        status: entry.status,
        statusText: STATUS_TEXT[entry.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: replayable,
        content: {
          size: responseSize,
          mimeType,
          ...(responseText === undefined ? {} : { text: responseText }),
          ...(omitted?.response === undefined
            ? {}
            : { comment: `body of ${omitted.response} characters left out (over the request log's limit)` }),
        },
        redirectURL: '',
        headersSize: -1,
        bodySize: responseSize,
      },
      cache: {},
      timings: { send: 0, wait: entry.durationMs, receive: 0 },
      _resourceType: 'fetch',
      ...(entry.id === undefined ? {} : { _id: entry.id }),
      _key: mask(entry.key),
      ...(entry.scenario === undefined ? {} : { _scenario: entry.scenario }),
      ...(entry.forced === undefined ? {} : { _forced: entry.forced }),
      ...(entry.fault === undefined ? {} : { _fault: entry.fault }),
      ...(entry.session === undefined ? {} : { _session: entry.session }),
      ...(bodies === undefined
        ? { comment: 'bodies no longer kept (older than the last exchanges kept), or none to keep' }
        : {}),
    }
  }
}

/** Counts a text's UTF-8 bytes without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    // Two bytes up to U+07FF, three beyond; a surrogate pair four.
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1
  }
  return bytes
}

/** Masks the admin token in logged headers too. */
function harHeaders(headers: readonly LoggedHeader[] | undefined, mask: (text: string) => string): HarHeader[] {
  return (headers ?? []).map(({ name, value }) => ({ name, value: mask(value) }))
}

function headerOf(headers: readonly HarHeader[], name: string): string | undefined {
  return headers.find((header) => header.name.toLowerCase() === name)?.value
}
