import { HttpError } from '../../core/errors/http-error.js'
import { ErrorCode } from '../../core/errors/error-code.js'
import { constantTimeEqual } from '../../core/auth/constant-time-equal.js'
import type { WrittenAnswer } from './answer-from-sandbox.js'
import type { ProxyStats } from './create-proxy-stats.js'
import { errorAnswer } from './error-answer.js'

/** Where the proxy shows its counters, beside the sandbox's own admin API (fixtures/admin-openapi.yaml). */
export const PROXY_ADMIN_PATH = '/__sandbox/proxy'

/** `GET /__sandbox/proxy`, behind the admin token like the rest of the admin API. */
export function answerProxyAdmin(method: string, presented: string | undefined, token: string, stats: ProxyStats): WrittenAnswer {
  if (presented === undefined || !constantTimeEqual(presented, token)) {
    return errorAnswer(
      new HttpError(401, ErrorCode.unauthorized, 'The admin API needs Authorization: Bearer <admin token>', {
        'www-authenticate': 'Bearer realm="petstore-sandbox admin"',
      }),
    )
  }
  if (method !== 'GET')
    return errorAnswer(new HttpError(405, ErrorCode.methodNotAllowed, `${method} is not allowed on ${PROXY_ADMIN_PATH}; allowed: GET`, { allow: 'GET' }))
  const text = JSON.stringify(stats.snapshot())
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body: Buffer.from(text) }
}
