import { createMasker } from '../../core/auth/create-masker.js'
import { type JudgedExchange, type ExchangeChecker, parseJsonBody } from '../verify/create-exchange-checker.js'
import { describeSource, VERIFY_PROMISES } from '../verify/promises.js'
import type { ProxyStats } from './create-proxy-stats.js'
import type { DecodedBody } from './decode-body.js'
import { MAX_FORWARDED_BYTES, type UpstreamAnswer } from './forward-request.js'

export interface HandedOver {
  method: string
  target: URL
  apiPath: string
  shownTarget: string
  authorization: string | undefined
  contentType: string | undefined
  /** Maybe the upstream's key, which the secrets in force need not hold. */
  presented: string | undefined
  /** Undefined for a body too long to keep. */
  sent: string | undefined
  answer: UpstreamAnswer
  /** Undefined when the answer was not encoded. */
  decoded: DecodedBody | undefined
  receivedAt: number
}

const DECIDED = new Map(
  VERIFY_PROMISES.flatMap(({ id, source }) =>
    source.kind === 'decision' ? [[id, describeSource(source)] as const] : [],
  ),
)

/** Checks an upstream answer against verify's promises (D39). */
export async function checkAnswer(
  { checker, stats }: { checker: ExchangeChecker; stats: ProxyStats },
  handedOver: HandedOver,
): Promise<void> {
  const { method, answer, decoded, presented } = handedOver
  const masker = createMasker({ keys: presented === undefined ? [] : [presented] })
  const shown = {
    method,
    path: masker.url(handedOver.shownTarget),
    status: answer.status,
    key: masker.credential(handedOver.authorization),
  }
  if (decoded?.kind === 'too-large')
    return stats.problem(
      `could not check ${method} ${shown.path}: its body decodes to more than ${MAX_FORWARDED_BYTES} bytes`,
    )
  try {
    const exchange = toExchange(handedOver)
    for (const violation of await checker.check(exchange)) {
      const entry = {
        time: new Date(exchange.receivedAt).toISOString(),
        promise: violation.promise,
        expected: masker.text(violation.expected),
        ...shown,
      }
      const decisions = DECIDED.get(violation.promise)
      if (decisions === undefined) stats.violated(entry)
      else stats.differed({ ...entry, decisions })
    }
  } catch (error) {
    stats.problem(`could not check ${method} ${shown.path}: ${(error as Error).message}`)
  }
}

/** Returns the exchange as the promises judge it. */
export function toExchange({
  method,
  target,
  apiPath,
  authorization,
  sent,
  answer,
  decoded,
  receivedAt,
}: HandedOver): JudgedExchange {
  const headers: Record<string, string> = {}
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!.toLowerCase()
    headers[name] =
      headers[name] === undefined ? answer.rawHeaders[i + 1]! : `${headers[name]}, ${answer.rawHeaders[i + 1]}`
  }
  // An encoded answer that did not decode is no JSON, as a client would find too.
  const bodyText = decoded === undefined ? answer.body.toString('utf8') : decoded.kind === 'text' ? decoded.text : ''
  return {
    method,
    url: target.href,
    path: apiPath,
    query: target.searchParams,
    credential: authorization === undefined ? 'none' : 'key',
    // Unknown: the promises that judge it are not judged.
    ...(sent !== undefined && (method === 'POST' || sent !== '') ? { requestBody: parseJsonBody(sent) ?? sent } : {}),
    status: answer.status,
    headers,
    bodyText,
    body: parseJsonBody(bodyText),
    receivedAt,
  }
}
