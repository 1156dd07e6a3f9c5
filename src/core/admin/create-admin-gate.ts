import { constantTimeEqual } from '../auth/constant-time-equal.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import { countedClient } from '../rate-limit/counted-client.js'
import { createAttemptLimiter } from './create-attempt-limiter.js'

// Per client address per minute (docs/running-for-a-team.md#admin-api).
const WRONG_TOKENS_PER_MINUTE = 10

/** Creates the admin token check: a locked-out address gets 429 even with the token (D31). */
export function createAdminGate({ token, now }: { token: string; now: () => number }) {
  const wrongTokens = createAttemptLimiter({ limit: WRONG_TOKENS_PER_MINUTE, windowMs: 60_000, now })
  return {
    admit(presented: string | undefined, clientAddress: string): void {
      const client = countedClient(clientAddress)
      const decision = wrongTokens.blocked(client)
      // Narrows with `=== false` under the scripts' loose typecheck too.
      if (decision.allowed === false) {
        throw new HttpError(
          429,
          ErrorCode.rateLimited,
          `Too many wrong admin tokens from this address; retry in ${decision.retryAfter} s`,
          {
            'retry-after': String(decision.retryAfter),
          },
        )
      }
      if (presented !== undefined && constantTimeEqual(presented, token)) return
      if (presented !== undefined) wrongTokens.fail(client)
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

export type AdminGate = ReturnType<typeof createAdminGate>
