import type { SandboxRequest } from '../http/sandbox-request.js'
import { createMasker, type Secrets } from '../auth/create-masker.js'
import { HttpError } from '../errors/http-error.js'
import { DroppedConnection } from '../faults/create-fault-injector.js'
import { isAdapterRequest } from '../http/adapter-request.js'
import { errorReply } from '../http/error-reply.js'
import { WireHeaders } from '../http/wire-headers.js'
import type { Reply } from '../http/reply.js'
import { type Answer, JSON_CONTENT_TYPE, toResponseAndText } from '../http/to-response.js'
import type { Answered, ExchangeBodies, RequestLog } from '../request-log/create-request-log.js'

/** How the log takes an answer: `listed` keeps it, `watched` only prints it, `none` leaves it out. */
export type Logging = 'listed' | 'watched' | 'none'

/** What an answer adds to its log entry beyond what every entry has. */
export type EntryNotes = Pick<Answered, 'session' | 'fault' | 'scenario' | 'forced' | 'source' | 'presented'>

/** Holds what a handler learns of an exchange as it answers, for the tail to read. */
export class Exchange {
  /** Headers earlier steps set (rate limits, deprecation, caching): an Error body carries them too. */
  readonly headers: Headers
  /** Epoch ms the entry is dated with: the tail's clock, or the clock of the session answering. */
  time: number
  logging: Logging
  readonly notes: EntryNotes = {}
  /** The request body as a handler read it, for the HAR. */
  requestBody: string | undefined = undefined
  readonly started = performance.now()

  constructor(time: number, logging: Logging, headers: Headers) {
    this.time = time
    this.logging = logging
    this.headers = headers
  }
}

/** How a handler's answer ends: a `reply`, a Response `passed` as it came, or `next` (msw's fall-through). */
export type Ending =
  | { kind: 'reply'; reply: Reply }
  | {
      kind: 'passed'
      response: Response
      status: number
      headers: Iterable<[string, string]>
      bodies?: ExchangeBodies | undefined
    }
  | { kind: 'next' }

/** A handler's answer to a request it claimed, given the exchange it may note things in. */
export type HandlerAnswer = (request: SandboxRequest, url: URL, exchange: Exchange) => Promise<Ending>

/** A request refused before it became a fetch Request (the server's edge) or outside the handlers (the pages). */
export interface RefusedRequest {
  method: string
  target: string
  requestHeaders: Iterable<[string, string]>
  /** When the refusal began, by `performance.now()`, and by the tail's clock. */
  started: number
  time: number
}

/** Builds a `RefusedRequest` of a head node:http parsed, dated `time`. */
export function refusedRequest(
  head: { method?: string | undefined; url?: string | undefined; rawHeaders: string[] },
  time: number,
  target?: string,
): RefusedRequest {
  const requestHeaders: Array<[string, string]> = []
  for (let i = 0; i < head.rawHeaders.length; i += 2)
    requestHeaders.push([head.rawHeaders[i]!, head.rawHeaders[i + 1]!])
  return {
    method: head.method ?? 'GET',
    target: target ?? head.url ?? '/',
    requestHeaders,
    started: performance.now(),
    time,
  }
}

export interface AnswerTailOptions {
  /** Where every answer is written; nowhere when absent (a bare server in a test or a benchmark). */
  requestLog?: Pick<RequestLog, 'record'> | undefined
  /** The clock entries are dated with, unless a handler says otherwise (the sandbox clock). */
  now?: () => number
  /** Told of anything thrown that is not an HttpError: a bug of ours, answered 500. */
  onUnexpectedError?: (error: unknown) => void
  /** The keys and token in force: an Error message that echoes one shows it masked (D35). */
  secrets?: () => Secrets
}

export interface AnswerTail {
  /** The clock entries are dated with. */
  now(): number
  /** Runs `answer`, making its answer or error a Response and logging it; undefined when passed on. */
  end(request: SandboxRequest, url: URL, logging: Logging, answer: HandlerAnswer): Promise<Answer | undefined>
  /** Refuses a request no handler can see, logged; with `undefined`, a head that did not parse, not logged. */
  refuse(refused: RefusedRequest | undefined, refusal: HttpError, headers: Headers): Reply
}

/** Creates the tail every answer ends through, as hono's `onError` (docs/architecture.md, "One tail"). */
export function createAnswerTail({
  requestLog,
  now = Date.now,
  onUnexpectedError,
  secrets,
}: AnswerTailOptions = {}): AnswerTail {
  /** Masks a key or the admin token in messages that echo the client (D35). */
  const masked = (error: unknown): unknown => {
    if (secrets === undefined || !(error instanceof HttpError)) return error
    const message = createMasker(secrets()).text(error.message)
    return message === error.message ? error : new HttpError(error.status, error.code, message, { ...error.headers })
  }

  const record = (
    request: SandboxRequest,
    url: URL,
    exchange: Exchange,
    status: number,
    responseHeaders: Iterable<[string, string]> | undefined,
    bodies: ExchangeBodies | undefined,
  ): void => {
    if (requestLog === undefined || exchange.logging === 'none') return
    const listed = exchange.logging === 'listed'
    const { notes } = exchange
    // Every field named, in one order: every entry has one shape (V8 keeps one hidden class).
    const answered: Answered = {
      time: exchange.time,
      method: request.method.toUpperCase(),
      target: url.pathname + url.search,
      status,
      durationMs: performance.now() - exchange.started,
      requestHeaders: request.headers,
      responseHeaders,
      fault: notes.fault,
      scenario: notes.scenario,
      forced: notes.forced,
      source: notes.source,
      session: notes.session,
      presented: notes.presented,
    }
    // Records plain facts only, never a closure over this scope (Answered says why).
    requestLog.record(answered, { listed, bodies: listed ? bodies : undefined })
  }

  return {
    now,
    async end(request, url, logging, answer) {
      // The adapter's answers get headers node checks as it writes them (wire-headers.ts).
      const exchange = new Exchange(now(), logging, isAdapterRequest(request) ? new WireHeaders() : new Headers())
      let ending: Ending | undefined
      try {
        ending = await answer(request, url, exchange)
      } catch (error) {
        if (error instanceof DroppedConnection) {
          // Drops the connection: fetch rejects in-process, the adapter destroys the socket.
          exchange.notes.fault = 'drop'
          record(request, url, exchange, 0, undefined, { origin: url.origin, requestBody: exchange.requestBody })
          return Response.error()
        }
        ending = { kind: 'reply', reply: errorReply(masked(error), exchange.headers, onUnexpectedError) }
      }
      switch (ending.kind) {
        case 'next':
          return undefined
        case 'passed':
          record(request, url, exchange, ending.status, ending.headers, ending.bodies)
          return ending.response
        case 'reply': {
          // The body's JSON text is made once: the Response and the log's exchange share it.
          const { response, text } = toResponseAndText(ending.reply, request)
          record(request, url, exchange, ending.reply.status, ending.reply.headers, {
            origin: url.origin,
            requestBody: exchange.requestBody,
            responseBody: text,
          })
          return response
        }
        default:
          return ending satisfies never
      }
    },
    refuse(refused, refusal, headers) {
      const reply = errorReply(masked(refusal), headers)
      // An Error body is JSON, as `toResponseAndText` says of every reply with a body.
      headers.set('content-type', JSON_CONTENT_TYPE)
      if (requestLog !== undefined && refused !== undefined) {
        const { method, target, requestHeaders, started, time } = refused
        requestLog.record({
          time,
          method,
          target,
          status: reply.status,
          durationMs: performance.now() - started,
          requestHeaders,
          responseHeaders: reply.headers,
        })
      }
      return reply
    },
  }
}
