import type { SandboxRequest } from '../../core/http/sandbox-request.js'
import type { HttpHandler } from 'msw'
import type { Secrets } from '../../core/auth/create-masker.js'
import { parseBearer } from '../../core/auth/create-key-ring.js'
import { createRouter, type OperationInfo } from '../../core/contract/create-router.js'
import { openapiDocument } from '../../core/contract/openapi-document.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'
import type { AnswerTail, Ending } from '../../core/pipeline/answer-tail.js'
import { ClaimingHandler } from '../../core/pipeline/claiming-handler.js'
import { requestedSession, DEFAULT_SESSION, sessionNameRefusal } from '../../core/sessions/session-name.js'
import { BODY_LIMIT } from '../../core/request-log/create-request-log.js'
import { MAX_BODY_BYTES } from '../../core/validation/read-json-body.js'
import { rawResponse } from '../server/create-request-listener.js'
import { takeBody, type TakenBody } from '../server/incoming-body.js'
import type { ExchangeChecker } from '../verify/create-exchange-checker.js'
import { checkAnswer, type HandedOver } from './check-answer.js'
import { createByteBudget } from './create-byte-budget.js'
import type { FallbackReason, ProxyStats } from './create-proxy-stats.js'
import { decodeBody, type DecodedBody, isEncoded } from './decode-body.js'
import { exchangeBodies, type HeldBody, isTextual } from './exchange-bodies.js'
import { forwardRequest, MAX_FORWARDED_BYTES, type UpstreamAnswer, UpstreamError } from './forward-request.js'
import { upstreamHeaders } from './upstream-headers.js'

/** Bounds the request-body bytes the proxy holds at once, across requests (D38). */
export const MAX_HELD_BODY_BYTES = 64 * 1024 * 1024

export interface ForwardingOptions {
  /** Without a trailing slash: `/v1/<rest>` goes to `<upstream>/<rest>`. */
  upstream: string
  fallback: boolean
  upstreamTimeoutMs: number
  tail: AnswerTail
  stats: ProxyStats
  checker: ExchangeChecker
  /** Real time, which the upstream's X-RateLimit-Reset is held to. */
  now: () => number
  /** Name no session the log shows (D35). */
  secrets: () => Secrets
  /** Hears of every judged exchange: the shadow (D42). */
  onExchange?: (handedOver: HandedOver) => void
}

// RFC 9110 9.2.1: the only ones the sandbox may answer once the upstream may have them (D25).
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Creates the proxy as an msw handler before the sandbox's (D25, D38). */
export function createForwardingHandler(options: ForwardingOptions): HttpHandler {
  const router = createRouter(openapiDocument)
  const held = createByteBudget(MAX_HELD_BODY_BYTES)

  return new ClaimingHandler({
    claims: (url) => url.pathname === '/v1' || url.pathname.startsWith('/v1/'),
    tail: options.tail,
    logging: 'listed',
    answer: async (request, url, exchange): Promise<Ending> => {
      exchange.time = options.now()
      // Never cached: a refusal says nothing of the upstream.
      exchange.headers.set('cache-control', 'no-store')
      exchange.notes.source = 'sandbox'
      exchange.notes.session = loggedSession(request, options.secrets())
      const method = request.method
      const apiPath = url.pathname.slice('/v1'.length)
      const match = router.match(method, apiPath)
      const operation = match.kind === 'operation' ? match.operation : undefined
      const presented = parseBearer(request.headers.get('authorization'))
      exchange.notes.presented = presented
      const refuse = (refusal: HttpError): never => {
        options.stats.answered('sandbox')
        throw refusal
      }

      const passOn = (reason: FallbackReason): Ending => {
        options.stats.fellBack(reason)
        options.stats.answered('sandbox')
        return { kind: 'next' }
      }

      const announced = request.headers.get('content-length')
      if (announced !== null && Number(announced) > MAX_FORWARDED_BYTES) {
        return refuse(
          new HttpError(
            413,
            ErrorCode.payloadTooLarge,
            `The request body is larger than the ${MAX_FORWARDED_BYTES} bytes the proxy forwards`,
          ),
        )
      }
      // Enough for the log and, with fallback, for the sandbox to read it (D38).
      const body = takeBody(request)
      let taken: TakenBody | undefined
      if (body !== undefined) {
        const keep = Math.min(
          announced === null ? Number.POSITIVE_INFINITY : Number(announced),
          options.fallback && operation?.readsBody ? MAX_BODY_BYTES + 1 : BODY_LIMIT,
        )
        body.onRelease(await held.reserve(keep))
        taken = body.take(keep)
      }
      const target = new URL(`${options.upstream}${apiPath}${url.search}`)
      let answer: UpstreamAnswer
      try {
        answer = await forwardRequest({
          target,
          method,
          headers: request.headers,
          body: taken?.chunks,
          timeoutMs: options.upstreamTimeoutMs,
        })
      } catch (error) {
        if (error instanceof HttpError) return refuse(error)
        if (!(error instanceof UpstreamError)) throw error
        if (error.kind === 'too_large') {
          return refuse(
            new HttpError(
              502,
              ErrorCode.upstreamTooLarge,
              `The upstream's answer is larger than the ${MAX_FORWARDED_BYTES} bytes the proxy passes on ` +
                `(${error.message})`,
            ),
          )
        }
        if (error.reached && !SAFE_METHODS.has(method)) {
          // The upstream may have acted on it: another answer could make a second pet (D25).
          const what =
            error.kind === 'timeout'
              ? `did not answer within ${options.upstreamTimeoutMs} ms`
              : `gave no complete answer (${error.message})`
          return refuse(
            new HttpError(
              504,
              ErrorCode.upstreamOutcomeUnknown,
              `This ${method} was sent to the upstream, which ${what}: it may have stored it;` +
                ' check before sending it again.',
            ),
          )
        }
        if (options.fallback) return passOn(error.kind)
        return refuse(
          error.kind === 'timeout'
            ? new HttpError(
                504,
                ErrorCode.upstreamTimeout,
                `The upstream did not answer within ${options.upstreamTimeoutMs} ms`,
              )
            : new HttpError(502, ErrorCode.upstreamUnreachable, `The upstream could not be reached (${error.message})`),
        )
      }
      if (options.fallback && fallsBackOn(answer.status, operation)) return passOn('missing')
      options.stats.answered('upstream')

      const head = method === 'HEAD'
      const written = upstreamHeaders(answer.rawHeaders, answer.body.length, head)
      const header = (name: string) => headerOf(answer.rawHeaders, name)
      const checked = !head && method !== 'OPTIONS'
      const contentType = header('content-type')
      // Decoded off the event loop and capped, for the log and the check (D38).
      const encoded = !head && isEncoded(header('content-encoding'))
      const decoded =
        encoded && (checked || isTextual(contentType))
          ? await decodeBody(answer.body, header('content-encoding'), MAX_FORWARDED_BYTES)
          : undefined
      const sentText =
        taken !== undefined && taken.taken() <= BODY_LIMIT
          ? taken.kept().toString('utf8')
          : taken === undefined
            ? ''
            : undefined
      const sent: HeldBody | undefined =
        taken === undefined
          ? undefined
          : { contentType: request.headers.get('content-type') ?? undefined, text: sentText, size: taken.taken() }
      const answered: HeldBody | undefined = head ? undefined : answerBody(contentType, answer.body, encoded, decoded)
      exchange.notes.source = 'upstream'
      // The client does not wait for the check.
      if (checked) {
        const handedOver: HandedOver = {
          method,
          target,
          apiPath,
          shownTarget: url.pathname + url.search,
          authorization: request.headers.get('authorization') ?? undefined,
          contentType: request.headers.get('content-type') ?? undefined,
          presented,
          sent: sentText,
          answer,
          decoded,
          receivedAt: options.now(),
        }
        setImmediate(() => {
          void checkAnswer(options, handedOver)
          options.onExchange?.(handedOver)
        })
      }
      return {
        kind: 'passed',
        response: rawResponse({
          status: answer.status,
          rawHeaders: written,
          body: head ? Buffer.alloc(0) : answer.body,
        }),
        status: answer.status,
        headers: pairs(written),
        bodies: exchangeBodies(url.origin, sent, answered, presented),
      }
    },
  })
}

/** Whether an upstream status means "not built yet": 501, or 404 where the contract has none (D25). */
export function fallsBackOn(status: number, operation: OperationInfo | undefined): boolean {
  if (operation === undefined) return false
  if (status === 501) return true
  if (status !== 404) return false
  const responses = (
    openapiDocument.paths[operation.path]?.[operation.method.toLowerCase()] as
      | { responses?: Record<string, unknown> }
      | undefined
  )?.responses
  return responses?.['404'] === undefined
}

/** Names the session an exchange is logged in (D43); undefined for the default or a key (D35). */
function loggedSession(request: SandboxRequest, secrets: Secrets): string | undefined {
  const named = requestedSession((name) => request.headers.get(name))
  if (
    named === undefined ||
    named.name === DEFAULT_SESSION ||
    sessionNameRefusal(named.name, named.where, secrets) !== undefined
  )
    return undefined
  return named.name
}

/** Returns the upstream's body as the log may show it. */
function answerBody(
  contentType: string | undefined,
  bytes: Buffer,
  encoded: boolean,
  decoded: DecodedBody | undefined,
): HeldBody {
  if (encoded) return { contentType, text: decoded?.kind === 'text' ? decoded.text : undefined }
  return bytes.length > BODY_LIMIT
    ? { contentType, text: undefined, size: bytes.length }
    : { contentType, text: bytes.toString('utf8') }
}

function headerOf(rawHeaders: string[], name: string): string | undefined {
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) return rawHeaders[i + 1]
  return undefined
}

function pairs(raw: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!])
  return out
}
