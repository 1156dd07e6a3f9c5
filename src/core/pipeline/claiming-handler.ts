import { HttpHandler } from 'msw'
import type { SandboxRequest } from '../http/sandbox-request.js'
import { type Answer, WireAnswer } from '../http/to-response.js'
import type { AnswerTail, HandlerAnswer, Logging } from './answer-tail.js'
import type { MaybePromise } from '../state/maybe-promise.js'

type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = Awaited<ReturnType<HttpHandler['run']>>

export interface Claim {
  claims: (url: URL) => boolean
  /** Answers with the URL parsed once; `next` passes the request on. */
  answer: HandlerAnswer
  tail: AnswerTail
  logging: Logging
}

/** Answers the requests `claims` accepts, with a leaner `run` (BENCHMARKS.md, "What the profiles changed"). */
export class ClaimingHandler extends HttpHandler {
  readonly #claims: (url: URL) => boolean
  readonly #claim: Claim

  constructor(claim: Claim) {
    const { claims, answer, tail, logging } = claim
    // Serve `test()` and callers of the base class.
    super(
      /.+/,
      ({ request }) => claims(new URL(request.url)),
      async ({ request }) => {
        const answered = await tail.end(request, new URL(request.url), logging, answer)
        return answered instanceof WireAnswer ? answered.toResponse() : answered
      },
    )
    this.#claims = claims
    this.#claim = claim
  }

  /** Answers as `run` does, for node:http: null when unclaimed, undefined when passed on. */
  serve(request: SandboxRequest, url: URL): MaybePromise<Answer | undefined> | null {
    if (!this.#claims(url)) return null
    this.isUsed = true
    const { tail, logging, answer } = this.#claim
    return tail.end(request, url, logging, answer)
  }

  override async run(args: RunArgs): Promise<RunResult> {
    const served = this.serve(args.request, new URL(args.request.url))
    if (served === null) return null
    const answered = await served
    const response = answered instanceof WireAnswer ? answered.toResponse() : answered
    return {
      handler: this,
      request: args.request,
      requestId: args.requestId,
      response,
      parsedResult: { match: { matches: true, params: {} }, cookies: {} },
    }
  }
}
