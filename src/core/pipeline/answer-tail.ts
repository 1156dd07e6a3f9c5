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
import { type MaybePromise, settleWith } from '../state/maybe-promise.js'

/** `listed` logs an answer, `watched` only prints it, `none` leaves it out. */
export type Logging = 'listed' | 'watched' | 'none'

export type EntryNotes = Pick<Answered, 'session' | 'fault' | 'scenario' | 'forced' | 'source' | 'presented'>

/** Holds what a handler learns of an exchange. */
export class Exchange {
  /** Holds headers an Error body carries too. */
  readonly headers: Headers
  /** Is by the tail's or the answering session's clock. */
  time: number
  logging: Logging
  readonly notes: EntryNotes = {}
  /** Keeps the body a handler read, for the HAR. */
  requestBody: string | undefined = undefined
  readonly started = performance.now()

  constructor(time: number, logging: Logging, headers: Headers) {
    this.time = time
    this.logging = logging
    this.headers = headers
  }
}

/** Ends an answer; `next` is msw's fall-through. */
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

export type HandlerAnswer = (request: SandboxRequest, url: URL, exchange: Exchange) => MaybePromise<Ending>

/** Describes a request refused at the server's edge. */
export interface RefusedRequest {
  method: string
  target: string
  requestHeaders: Iterable<[string, string]>
  /** Is by `performance.now()`, `time` by the tail's clock. */
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
  /** Logs every answer; absent for a bare server. */
  requestLog?: Pick<RequestLog, 'record'> | undefined
  now?: () => number
  /** Hears of a bug (anything thrown but an HttpError), answered 500. */
  onUnexpectedError?: (error: unknown) => void
  /** Masks these in Error messages (D35). */
  secrets?: () => Secrets
}

export interface AnswerTail {
  now(): number
  /** Runs `answer` into a logged Response, without a promise when `answer` gives none. */
  end(request: SandboxRequest, url: URL, logging: Logging, answer: HandlerAnswer): MaybePromise<Answer | undefined>
  /** Refuses a request no handler sees; logs it unless `refused` is undefined. */
  refuse(refused: RefusedRequest | undefined, refusal: HttpError, headers: Headers): Reply
}

/** Creates the tail every answer ends through, as hono's `onError` (docs/architecture.md, "One tail"). */
export function createAnswerTail({
  requestLog,
  now = Date.now,
  onUnexpectedError,
  secrets,
}: AnswerTailOptions = {}): AnswerTail {
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
    // Names every field in one order, so every entry has one hidden class.
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
    // Plain facts only, never a closure (Answered says why).
    requestLog.record(answered, { listed, bodies: listed ? bodies : undefined })
  }

  return {
    now,
    end(request, url, logging, answer) {
      const exchange = new Exchange(now(), logging, isAdapterRequest(request) ? new WireHeaders() : new Headers())
      const ended = (ending: Ending): Answer | undefined => {
        switch (ending.kind) {
          case 'next':
            return undefined
          case 'passed':
            record(request, url, exchange, ending.status, ending.headers, ending.bodies)
            return ending.response
          case 'reply': {
            // One JSON text for the Response and the log.
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
      }
      return settleWith(
        () => answer(request, url, exchange),
        ended,
        (error) => {
          if (error instanceof DroppedConnection) {
            exchange.notes.fault = 'drop'
            record(request, url, exchange, 0, undefined, { origin: url.origin, requestBody: exchange.requestBody })
            return Response.error()
          }
          return ended({ kind: 'reply', reply: errorReply(masked(error), exchange.headers, onUnexpectedError) })
        },
      )
    },
    refuse(refused, refusal, headers) {
      const reply = errorReply(masked(refusal), headers)
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
