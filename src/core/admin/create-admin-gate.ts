import { constantTimeEqual } from '../auth/constant-time-equal.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import { createAttemptLimiter } from './create-attempt-limiter.js'

// Wrong admin tokens each client address may send per minute (docs/running-for-a-team.md#admin-api).
const WRONG_TOKENS_PER_MINUTE = 10

/**
 * The admin token's check, shared by the sandbox's admin API and the proxy's admin paths so that
 * neither is a way around the other's limit on wrong tokens: `admit` throws the 401, or the 429
 * once an address has sent too many wrong tokens; the right token is never counted nor slowed.
 */
export function createAdminGate({ token, now }: { token: string; now: () => number }) {
  const wrongTokens = createAttemptLimiter({ limit: WRONG_TOKENS_PER_MINUTE, windowMs: 60_000, now })
  return {
    admit(presented: string | undefined, clientAddress: string): void {
      if (presented !== undefined && constantTimeEqual(presented, token)) return
      if (presented !== undefined) {
        const decision = wrongTokens.blocked(clientAddress)
        if (!decision.allowed) {
          throw new HttpError(429, ErrorCode.rateLimited, `Too many wrong admin tokens from this address; retry in ${decision.retryAfter} s`, {
            'retry-after': String(decision.retryAfter),
          })
        }
        wrongTokens.fail(clientAddress)
      }
      throw new HttpError(
        401,
        ErrorCode.unauthorized,
        presented === undefined
          ? 'The admin API needs Authorization: Bearer <admin token>'
          : 'The admin token is not valid (API keys do not open the admin API)',
        { 'www-authenticate': 'Bearer realm="petstore-sandbox admin"' },
      )
    },
  }
}
