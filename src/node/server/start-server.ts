import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RequestHandler } from 'msw'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import { answerClientError, type Refuse, writeRefusal } from './answer-client-error.js'
import { answerUnread, createRequestListener } from './create-request-listener.js'
import {
  type AnswerTail,
  createAnswerTail,
  type RefusedRequest,
  refusedRequest,
} from '../../core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../core/pipeline/claiming-handler.js'
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './server-limits.js'
import type { PagesListener } from '../pages/create-pages-listener.js'
import { createClientAddress, type TrustedProxies } from './create-client-address.js'
import { createInFlight } from './in-flight.js'
import { refusalAnswer } from './refusal-answer.js'
import { createRequestUrls, unservableRequest } from './unservable-request.js'

export interface StartServerOptions {
  handlers: RequestHandler[]
  port: number
  host: string
  /** Returns the headers of the server's refusals for an address (D16). */
  refusalHeaders?: (address: string) => Promise<Record<string, string>>
  answerHeaders?: Record<string, string>
  tail?: AnswerTail
  limits?: Partial<ServerLimits>
  /** Made on the first request outside /v1. */
  pages?: (origin: string) => Promise<PagesListener>
  trustProxy?: TrustedProxies
}

export interface RunningServer {
  url: string
  port: number
  server: Server
  /** Stops, letting in-flight requests finish within `shutdownGraceMs`. */
  close(): Promise<void>
}

function underApi(target = '/'): boolean {
  return target.startsWith('/v1') && (target.length === 3 || target[3] === '/' || target[3] === '?')
}

/** Starts the HTTP server of every serving command. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const {
    port,
    host,
    limits = {},
    pages: makePages,
    trustProxy,
    refusalHeaders,
    answerHeaders = {},
    tail = createAnswerTail(),
  } = options
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxHeaderBytes, shutdownGraceMs } = {
    ...DEFAULT_SERVER_LIMITS,
    ...limits,
  }
  const server = createServer({
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    maxHeaderSize: maxHeaderBytes,
    // Host is checked in unservable-request.ts.
    requireHostHeader: false,
    // node's default (30 s) makes the timeouts late.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, headersTimeoutMs / 4)),
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const origin = `http://${hostForUrl}:${address.port}`
  let closing = false
  const inFlight = createInFlight<ServerResponse>()
  // Keep-alive clients must leave for `close()` to resolve.
  server.on('request', (_incoming, outgoing: ServerResponse) => {
    if (closing) outgoing.shouldKeepAlive = false
    const remove = inFlight.add(outgoing)
    outgoing.once('close', () => {
      remove()
      if (closing) server.closeIdleConnections()
    })
  })
  const clientAddress = createClientAddress(trustProxy)
  const refuseRequest = async (address: string, refusal: HttpError, refused?: RefusedRequest) => {
    let headers: Record<string, string> = {}
    try {
      headers = (await refusalHeaders?.(address)) ?? {}
    } catch {
      // Shared state down: the Error body goes out without them.
    }
    return refusalAnswer(tail.refuse(refused, refusal, new Headers({ ...answerHeaders, ...headers })))
  }
  const refuse: Refuse = (address, refusal) => refuseRequest(address, refusal)
  const unclaimed = new ClaimingHandler({
    claims: () => true,
    answer: () => Promise.reject(new HttpError(404, ErrorCode.notFound, 'Not found')),
    tail,
    logging: 'listed',
  })
  const answer = createRequestListener([...options.handlers, unclaimed], { origin, clientAddress, answerHeaders, tail })
  const headerNames = Object.keys(answerHeaders)
  const paged = (made: PagesListener, incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    if (headerNames.length === 0) return made.handle(incoming, outgoing)
    for (const name of headerNames) outgoing.setHeader(name, answerHeaders[name]!)
    if (made.handle(incoming, outgoing)) return true
    for (const name of headerNames) outgoing.removeHeader(name)
    return false
  }
  let pages: PagesListener | undefined
  let pagesMade: Promise<PagesListener> | undefined
  const makePagesOnce = (make: (origin: string) => Promise<PagesListener>) =>
    (pagesMade ??= make(origin).then((made) => {
      // Its event streams would hold a closing process open.
      if (closing) made.close()
      pages = made
      return made
    }))
  const requestUrl = createRequestUrls(origin)
  server.on('request', (incoming, outgoing) => {
    const url = requestUrl(incoming)
    const refusal = unservableRequest(incoming, url)
    if (refusal !== undefined) {
      const refused = refusedRequest(
        incoming,
        tail.now(),
        URL.canParse(incoming.url ?? '/', origin) ? undefined : '(not a URL)',
      )
      void refuseRequest(clientAddress(incoming), refusal, refused).then((refused) =>
        answerUnread(incoming, outgoing, refused),
      )
      return
    }
    if (pages === undefined && makePages !== undefined && !underApi(incoming.url)) {
      // Pages that cannot be made leave the API's answer.
      makePagesOnce(makePages).then(
        (made) => {
          if (!paged(made, incoming, outgoing)) answer(incoming, outgoing, url!)
        },
        () => answer(incoming, outgoing, url!),
      )
      return
    }
    if (pages === undefined || !paged(pages, incoming, outgoing)) answer(incoming, outgoing, url!)
  })
  server.on('clientError', answerClientError(refuse))
  // node would answer a bare 417.
  server.on('checkExpectation', (incoming, outgoing) => server.emit('request', incoming, outgoing))
  // node would drop CONNECT unanswered.
  server.on('connect', (_incoming, socket) =>
    writeRefusal(
      refuse,
      socket,
      new HttpError(400, ErrorCode.invalidRequest, 'CONNECT requests are not supported by the sandbox'),
    ),
  )

  return {
    url: `${origin}/v1`,
    port: address.port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true
        pages?.close()
        inFlight.forEach((outgoing) => {
          if (!outgoing.headersSent) outgoing.shouldKeepAlive = false
        })
        const cut = setTimeout(() => server.closeAllConnections(), shutdownGraceMs)
        server.close(() => {
          clearTimeout(cut)
          resolve()
        })
        server.closeIdleConnections()
      }),
  }
}
