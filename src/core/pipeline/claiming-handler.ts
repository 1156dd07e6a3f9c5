import { HttpHandler } from 'msw'
import type { SandboxRequest } from '../http/sandbox-request.js'
import { type Answer, WireAnswer } from '../http/to-response.js'
import type { AnswerTail, HandlerAnswer, Logging } from './answer-tail.js'

type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = Awaited<ReturnType<HttpHandler['run']>>

/** What a claiming handler claims, how it answers, and how its answers are logged. */
export interface Claim {
  claims: (url: URL) => boolean
  /** The URL is the request's, parsed once. An `Ending` of `next` passes the request on, as msw's own handlers fall through. */
  answer: HandlerAnswer
  /** The one tail its answers end through (answer-tail.ts): errors become Error bodies there, and answers are recorded there. */
  tail: AnswerTail
  logging: Logging
}

/**
 * An msw `HttpHandler` for every method that answers the requests whose URL `claims` accepts,
 * with the URL parsed once for both, and ends every answer through the one tail.
 *
 * `run` is msw's own, less what this handler's answer never uses: `{ once }`, `finalize`,
 * generator resolvers, path parameters and cookies. Those parts cost more than the sandbox's whole
 * pipeline (an AbortController aborted per request, a request clone nothing reads, cookie parsing:
 * BENCHMARKS.md, "What the profiles changed"). Everything msw reads from a handler (the execution
 * result, `info`, `log`, `test`, `isUsed`) stays as an `http.all` handler has it.
 *
 * @example
 * setupServer(new ClaimingHandler({ claims: (url) => url.pathname === '/ping', answer: async () => ({ kind: 'reply', reply: { status: 204, headers: new Headers() } }), tail: createAnswerTail(), logging: 'none' }))
 */
export class ClaimingHandler extends HttpHandler {
  readonly #claims: (url: URL) => boolean
  readonly #claim: Claim

  constructor(claim: Claim) {
    const { claims, answer, tail, logging } = claim
    // The predicate and resolver msw keeps serve `test()` and anyone calling the base class.
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

  /** Answers as `run` does, without msw, for the node:http adapter: null when unclaimed, undefined when passed on. */
  serve(request: SandboxRequest, url: URL): Promise<Answer | undefined> | null {
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
