import { type Exchange, parseJsonBody } from '../verify/create-exchange-checker.js'
import type { UpstreamAnswer } from './forward-request.js'

/** A forwarded request and the upstream's answer, as the promises judge it (verify's Exchange). */
export function toExchange(
  request: {
    method: string
    target: URL
    apiPath: string
    hasKey: boolean
    /** The body's text, when the proxy kept it whole; undefined for none, or one too long to keep. */
    sent: string | undefined
  },
  answer: UpstreamAnswer,
  /** The answer's text, decoded when it was encoded. */
  bodyText: string,
  receivedAt: number,
): Exchange {
  const headers: Record<string, string> = {}
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!.toLowerCase()
    headers[name] = headers[name] === undefined ? answer.rawHeaders[i + 1]! : `${headers[name]}, ${answer.rawHeaders[i + 1]}`
  }
  const { sent } = request
  return {
    method: request.method,
    url: request.target.href,
    path: request.apiPath,
    query: request.target.searchParams,
    credential: request.hasKey ? 'key' : 'none',
    // A body not kept whole is unknown: the promises that judge it are then not judged.
    ...(sent !== undefined && (request.method === 'POST' || sent !== '') ? { requestBody: parseJsonBody(sent) ?? sent } : {}),
    status: answer.status,
    headers,
    bodyText,
    body: parseJsonBody(bodyText),
    receivedAt,
  }
}
