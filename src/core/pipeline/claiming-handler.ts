import { HttpHandler } from 'msw'

type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = Awaited<ReturnType<HttpHandler['run']>>

/**
 * How a claiming handler answers: the URL is the request's, parsed once. Undefined passes the
 * request on to the handlers after it, as msw's own handlers fall through.
 */
export type ClaimedRequestAnswer = (request: Request, url: URL) => Promise<Response | undefined>

/**
 * An msw `HttpHandler` for every method that answers the requests whose URL `claims` accepts,
 * with the URL parsed once for both.
 *
 * `run` is msw's own, less what this handler's answer never uses: `{ once }`, `finalize`,
 * generator resolvers, path parameters and cookies. Those parts cost more than the sandbox's whole
 * pipeline (an AbortController aborted per request, a request clone nothing reads, cookie parsing:
 * BENCHMARKS.md, "What the profiles changed"). Everything msw reads from a handler (the execution
 * result, `info`, `log`, `test`, `isUsed`) stays as an `http.all` handler has it.
 *
 * @example
 * setupServer(new ClaimingHandler((url) => url.pathname.startsWith('/v1/'), async () => Response.json([])))
 */
export class ClaimingHandler extends HttpHandler {
  readonly #claims: (url: URL) => boolean
  readonly #answer: ClaimedRequestAnswer

  constructor(claims: (url: URL) => boolean, answer: ClaimedRequestAnswer) {
    // The predicate and resolver msw keeps serve `test()` and anyone calling the base class.
    super(
      /.+/,
      ({ request }) => claims(new URL(request.url)),
      ({ request }) => answer(request, new URL(request.url)),
    )
    this.#claims = claims
    this.#answer = answer
  }

  override async run(args: RunArgs): Promise<RunResult> {
    const url = new URL(args.request.url)
    if (!this.#claims(url)) return null
    this.isUsed = true
    const response = await this.#answer(args.request, url)
    return {
      handler: this,
      request: args.request,
      requestId: args.requestId,
      response,
      parsedResult: { match: { matches: true, params: {} }, cookies: {} },
    }
  }
}
