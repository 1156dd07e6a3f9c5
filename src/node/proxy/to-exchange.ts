import { type Exchange, parseJsonBody } from '../verify/create-exchange-checker.js'
import { decodeBody } from './decode-body.js'
import type { UpstreamAnswer } from './forward-request.js'

/** A forwarded request and the upstream's answer, as the promises judge it (verify's Exchange). */
export function toExchange(
  request: { method: string; target: URL; apiPath: string; hasKey: boolean; body: Buffer },
  answer: UpstreamAnswer,
  receivedAt: number,
): Exchange {
  const headers: Record<string, string> = {}
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!.toLowerCase()
    headers[name] = headers[name] === undefined ? answer.rawHeaders[i + 1]! : `${headers[name]}, ${answer.rawHeaders[i + 1]}`
  }
  const bodyText = decodeBody(answer.body, headers['content-encoding'])
  const sent = request.body.toString('utf8')
  return {
    method: request.method,
    url: request.target.href,
    path: request.apiPath,
    query: request.target.searchParams,
    credential: request.hasKey ? 'key' : 'none',
    ...(request.method === 'POST' || sent !== '' ? { requestBody: parseJsonBody(sent) ?? sent } : {}),
    status: answer.status,
    headers,
    bodyText,
    body: parseJsonBody(bodyText),
    receivedAt,
  }
}
