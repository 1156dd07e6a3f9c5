import { HttpError } from '../../core/errors/http-error.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'msw'
import { createRouter } from '../../core/contract/create-router.js'
import { openapiDocument } from '../../core/contract/openapi-document.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { createMasker } from '../../core/auth/create-masker.js'
import { ADMIN_PREFIX } from '../../core/admin/create-admin-handler.js'
import { FAULT_HEADER } from '../../core/faults/create-fault-injector.js'
import { PROBE_PATHS } from '../../core/probes/create-probe-handler.js'
import { reportViolations } from './report-violations.js'
import { parseBearer } from '../../core/auth/create-key-ring.js'
import type { ExchangeChecker } from '../verify/create-exchange-checker.js'
import type { PagesListener } from '../pages/create-pages-listener.js'
import { refusalAnswer, type WrittenAnswer } from '../server/refusal-answer.js'
import { requestUrl } from '../server/unservable-request.js'
import { answerFromSandbox } from './answer-from-sandbox.js'
import type { RequestLogger } from '../../core/request-log/create-request-logger.js'
import type { ProxyStats } from './create-proxy-stats.js'
import { fallsBackOn } from './falls-back-on.js'
import { forwardRequest, MAX_FORWARDED_BYTES, type UpstreamAnswer } from './forward-request.js'
import type { ProxyAdmin } from './create-proxy-admin.js'
import type { RequestLog } from '../../core/request-log/create-request-log.js'
import { exchangeBodies, type HeldBody } from './exchange-bodies.js'
import { readIncoming } from './read-incoming.js'
import { endAfterBody } from '../server/incoming-body.js'
import { toExchange } from './to-exchange.js'
import { SOURCE_HEADER, upstreamHeaders } from './upstream-headers.js'
import { UpstreamError } from './upstream-error.js'

/** An answer's body with what its written headers say about it. */
function heldBody(bytes: Buffer, written: Array<[string, string]>, decoded?: string): HeldBody {
  const header = (name: string) => written.find(([named]) => named.toLowerCase() === name)?.[1]
  return { bytes, contentType: header('content-type'), contentEncoding: header('content-encoding'), decoded }
}

export interface ProxyListenerOptions {
  /** The upstream API base, without a trailing slash: `/v1/<rest>` goes to `<upstream>/<rest>`. */
  upstream: string
  /** The proxy's own origin, e.g. `http://127.0.0.1:4010`. */
  origin: string
  fallback: boolean
  upstreamTimeoutMs: number
  /** The sandbox's origin handlers: the fallback, and everything outside /v1. */
  sandboxHandlers: RequestHandler[]
  /** The admin paths the proxy answers itself; undefined without an admin token. */
  admin: ProxyAdmin | undefined
  checker: ExchangeChecker
  /** The sandbox's pages, answered before anything else as `start` answers them. */
  pages: PagesListener | undefined
  stats: ProxyStats
  /** What the dashboard's request list and `GET /__sandbox/requests` show. */
  /** Every answer goes here, once, whoever gave it: the stdout log, the dashboard and `GET /__sandbox/requests` read it. */
  requests: RequestLog
  logger: RequestLogger
  now: () => number
  /** Who the client of a request is, as the server names it. */
  clientAddress: (incoming: IncomingMessage) => string
}

// Methods that change nothing (RFC 9110 9.2.1): the only ones the sandbox may answer once the
// upstream may have the request, since no answer of the sandbox can then duplicate a change.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** An answer of the proxy's own, never to be cached: its Error body comes from the one place that builds them. */
function ownAnswer(refusal: HttpError): WrittenAnswer {
  return refusalAnswer(refusal, { 'cache-control': 'no-store' })
}

/**
 * The proxy's request listener: `/v1` goes to the upstream (or, with fallback, to the sandbox when
 * the upstream cannot answer), everything else to the sandbox. Each upstream answer is written
 * unchanged, then checked against verify's promises; violations are counted and logged. Every
 * answer is written to the request log, once, whoever gave it; as under `start`, the admin API's
 * answers are listed only when the admin gate refused them, and the probes' not at all. With
 * fallback, the sandbox answers only where it cannot duplicate what the upstream did: a request
 * that never reached it, a read, or an operation the upstream says it does not have
 * (docs/decisions.md#d25).
 */
export function createProxyListener(options: ProxyListenerOptions) {
  const router = createRouter(openapiDocument)

  return (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    if (options.pages !== undefined) {
      // A page carries the source header like every answer of the proxy; it is no API answer, so
      // it is neither counted nor logged, as under `start`.
      outgoing.setHeader(SOURCE_HEADER, 'sandbox')
      if (options.pages.handle(incoming, outgoing)) return
      outgoing.removeHeader(SOURCE_HEADER)
    }
    const started = performance.now()
    const method = incoming.method ?? 'GET'
    // The server has refused targets that are no URL (unservable-request.ts).
    const url = new URL(requestUrl(incoming, options.origin))
    const clientAddress = options.clientAddress(incoming)
    const presented = parseBearer(incoming.headers.authorization ?? null)
    // Not even a prefix of the admin token: it opens more than any key.
    const masker = createMasker({ keys: presented === undefined ? [] : [presented] })
    const key = url.pathname.startsWith('/__sandbox') ? 'admin' : masker.credential(incoming.headers.authorization)
    // What a violation shows (the log's entries are masked when read, with the keys in force then).
    const shownPath = masker.url(url.pathname + url.search)
    const time = options.now()
    const requestHeaders: Array<[string, string]> = []
    for (let i = 0; i < incoming.rawHeaders.length; i += 2) requestHeaders.push([incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!])
    // The body read from the client, once read: the request log keeps it for a HAR.
    let sent: HeldBody | undefined
    // When the answer was handed over: an upstream answer is recorded after its check is made.
    let answeredAt: number | undefined
    const record = (
      status: number,
      source: 'upstream' | 'sandbox',
      responseHeaders: Array<[string, string]> | undefined,
      fault: string | undefined,
      answered?: HeldBody,
    ) => {
      const adminPath = url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)
      const listed = adminPath ? status === 401 || status === 429 : !(PROBE_PATHS as readonly string[]).includes(url.pathname)
      const durationMs = (answeredAt ?? performance.now()) - started
      const target = url.pathname + url.search
      options.requests.record(
        { time, method, target, status, durationMs, requestHeaders, responseHeaders, fault, source, presented },
        // Only a listed answer is kept, so only its bodies are made.
        { listed, bodies: listed ? exchangeBodies(url.origin, sent, method === 'HEAD' ? undefined : answered, presented) : undefined },
      )
    }
    /** Writes an answer and counts it; returns the header pairs written. */
    const send = (answer: WrittenAnswer | string[], status: number, body: Buffer, source: 'upstream' | 'sandbox'): Array<[string, string]> => {
      const headers = Array.isArray(answer) ? answer : { ...answer.headers, 'content-length': String(body.length), [SOURCE_HEADER]: source }
      outgoing.writeHead(status, headers)
      if (incoming.complete) outgoing.end(method === 'HEAD' ? undefined : body)
      else {
        // A body refused unread (413): the answer goes out now and ends once the body is drained.
        if (method !== 'HEAD') outgoing.write(body)
        endAfterBody(incoming, outgoing)
      }
      answeredAt = performance.now()
      // The admin API's answers are not counted: the dashboard polling them would swamp the counts.
      if (!url.pathname.startsWith('/__sandbox/')) options.stats.answered(source)
      const written: Array<[string, string]> = []
      if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) written.push([headers[i]!, headers[i + 1]!])
      else for (const [name, value] of Object.entries(headers)) written.push([name, String(value)])
      return written
    }
    /** Writes an answer of the proxy or the sandbox, and records it with its body. */
    const write = (answer: WrittenAnswer) => {
      const written = send(answer, answer.status, answer.body, 'sandbox')
      record(answer.status, 'sandbox', written, answer.headers[FAULT_HEADER], heldBody(answer.body, written))
    }
    const fromSandbox = async (body: Buffer) => {
      const answer = await answerFromSandbox(options.sandboxHandlers, {
        url,
        method,
        headers: incoming.headers,
        body,
        clientAddress,
      })
      if (answer === undefined) {
        // An injected dropped connection, listed as `start` lists it.
        outgoing.destroy()
        return record(0, 'sandbox', undefined, 'drop')
      }
      write(answer)
      // A reset clears "the request log", the dashboard says: under the proxy, that is the proxy's.
      if (method === 'POST' && url.pathname === `${ADMIN_PREFIX}/reset` && answer.status === 200) options.requests.clear()
    }

    const refuse = (refusal: HttpError) => {
      const answer = ownAnswer(refusal)
      write(answer)
    }

    const handle = async () => {
      // Refused before reading when it says it is too large; otherwise counted as it comes.
      const announced = Number(incoming.headers['content-length'] ?? 0)
      const body = announced > MAX_FORWARDED_BYTES ? undefined : await readIncoming(incoming, MAX_FORWARDED_BYTES)
      if (body === undefined) {
        outgoing.shouldKeepAlive = false
        return refuse(new HttpError(413, ErrorCode.payloadTooLarge, `The request body is larger than the ${MAX_FORWARDED_BYTES} bytes the proxy forwards`))
      }
      sent = { bytes: body, contentType: incoming.headers['content-type'], contentEncoding: incoming.headers['content-encoding'] }
      const own = options.admin?.answer({ method, url, presented, clientAddress })
      if (own !== undefined) return write(own)
      if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return fromSandbox(body)

      const apiPath = url.pathname.slice('/v1'.length)
      const target = new URL(`${options.upstream}${apiPath}${url.search}`)
      const match = router.match(method, apiPath)
      const operation = match.kind === 'operation' ? match.operation : undefined
      let answer: UpstreamAnswer
      try {
        answer = await forwardRequest({ target, method, headers: incoming.headers, body, timeoutMs: options.upstreamTimeoutMs })
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error
        if (error.kind === 'too_large') {
          const message = `The upstream's answer is larger than the ${MAX_FORWARDED_BYTES} bytes the proxy passes on (${error.message})`
          return refuse(new HttpError(502, ErrorCode.upstreamTooLarge, message))
        }
        if (error.reached && !SAFE_METHODS.has(method)) {
          // The upstream may have acted on it: another answer could make a second pet (D25).
          const what = error.kind === 'timeout' ? `did not answer within ${options.upstreamTimeoutMs} ms` : `gave no complete answer (${error.message})`
          return refuse(
            new HttpError(
              504,
              ErrorCode.upstreamOutcomeUnknown,
              `This ${method} was sent to the upstream, which ${what}: it may have stored it; check before sending it again.`,
            ),
          )
        }
        if (options.fallback) {
          options.stats.fellBack(error.kind)
          return fromSandbox(body)
        }
        return refuse(
          error.kind === 'timeout'
            ? new HttpError(504, ErrorCode.upstreamTimeout, `The upstream did not answer within ${options.upstreamTimeoutMs} ms`)
            : new HttpError(502, ErrorCode.upstreamUnreachable, `The upstream could not be reached (${error.message})`),
        )
      }
      if (options.fallback && fallsBackOn(answer.status, operation)) {
        options.stats.fellBack('missing')
        return fromSandbox(body)
      }
      const written = send(upstreamHeaders(answer.rawHeaders, answer.body.length, method === 'HEAD'), answer.status, answer.body, 'upstream')
      // Checked after it is written, so that the client does not wait for the check; its decoded
      // text is what the log keeps of a compressed answer.
      const exchange =
        method === 'HEAD' || method === 'OPTIONS'
          ? undefined
          : toExchange({ method, target, apiPath, hasKey: incoming.headers.authorization !== undefined, body }, answer, options.now())
      record(answer.status, 'upstream', written, undefined, heldBody(answer.body, written, exchange?.bodyText))
      if (exchange === undefined) return
      const secrets = presented === undefined ? [] : [presented]
      await reportViolations(options, exchange, { method, path: shownPath, status: answer.status, key }, secrets)
    }

    handle().catch(() => {
      if (outgoing.headersSent) return void outgoing.destroy()
      refuse(new HttpError(500, ErrorCode.internalError, 'The proxy failed to answer this request'))
    })
  }
}
