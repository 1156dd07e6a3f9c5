import { type JudgedExchange, parseJsonBody, retryAfterSeconds } from './create-exchange-checker.js'

/** Names the wrong key verify sends to see it refused. */
export const WRONG_KEY = 'petstore-sandbox-verify-not-a-key'

/** Thrown when the backend did not answer, so nothing can be judged. */
export class VerifyConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'VerifyConnectionError'
  }
}

export interface PoliteClientOptions {
  /** Without a trailing slash. */
  baseUrl: string
  key: string
  now: () => number
  sleep: (ms: number) => Promise<void>
  /** Sees every exchange, retried ones included. */
  onExchange: (exchange: JudgedExchange) => Promise<void>
  requestTimeoutMs: number
  /** Told before a 429 is waited out. */
  onWait: (seconds: number, exchange: JudgedExchange) => void
}

export interface SendRequest {
  method?: string
  /** Below the base, with its query: `/pets?limit=5`. */
  path: string
  credential?: JudgedExchange['credential']
  body?: unknown
  /** False when the 429 is what is checked. */
  retryAfter429?: boolean
}

const MAX_RETRIES = 2
/** Longer Retry-Afters (a ban, a daily window) are not waited out. */
const MAX_WAIT_SECONDS = 120

/** Creates verify's client: one request at a time, obeying Retry-After, so no key gets banned (spec §8). */
export function createPoliteClient({
  baseUrl,
  key,
  now,
  sleep,
  onExchange,
  requestTimeoutMs,
  onWait,
}: PoliteClientOptions) {
  let sent = 0

  async function once(request: SendRequest): Promise<JudgedExchange> {
    const method = request.method ?? 'GET'
    const credential = request.credential ?? 'key'
    const url = `${baseUrl}${request.path}`
    const headers: Record<string, string> = { accept: 'application/json' }
    if (credential !== 'none') headers.authorization = `Bearer ${credential === 'key' ? key : WRONG_KEY}`
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    sent++
    let response: Response
    let bodyText: string
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(requestTimeoutMs),
      })
      bodyText = await response.text()
    } catch (error) {
      throw new VerifyConnectionError(`${method} ${url} got no answer (${describeFailure(error, requestTimeoutMs)})`, {
        cause: error,
      })
    }
    const responseHeaders: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value
    })
    const exchange: JudgedExchange = {
      method,
      url,
      path: request.path.split('?')[0]!,
      query: new URL(url).searchParams,
      credential,
      ...(request.body === undefined ? {} : { requestBody: request.body }),
      status: response.status,
      headers: responseHeaders,
      bodyText,
      body: parseJsonBody(bodyText),
      receivedAt: now(),
    }
    await onExchange(exchange)
    return exchange
  }

  return {
    sent: () => sent,
    async send(request: SendRequest): Promise<JudgedExchange> {
      let exchange = await once(request)
      for (let retry = 0; retry < MAX_RETRIES && exchange.status === 429 && request.retryAfter429 !== false; retry++) {
        const seconds = retryAfterSeconds(exchange.headers['retry-after'], now())
        if (seconds === undefined || seconds > MAX_WAIT_SECONDS) break
        onWait(seconds, exchange)
        await sleep(seconds * 1000)
        exchange = await once(request)
      }
      return exchange
    },
  }
}

export type PoliteClient = ReturnType<typeof createPoliteClient>

function describeFailure(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`
  // undici wraps the socket's error, or an AggregateError of one per address tried.
  const cause = (error as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message
}
