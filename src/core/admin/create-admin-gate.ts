import { constantTimeEqual } from '../auth/constant-time-equal.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import { countedClient } from '../rate-limit/counted-client.js'
import { createAttemptLimiter } from './create-attempt-limiter.js'

// Wrong admin tokens each client address may send per minute (docs/running-for-a-team.md#admin-api).
const WRONG_TOKENS_PER_MINUTE = 10

/**
 * The admin token's check: one per process, in front of every admin path (the admin API, the
 * dashboard's event stream, the proxy's own admin paths), so that none is a way around the others'
 * limit on wrong tokens. `admit` throws the 401 for a missing or wrong token. Once an address has
 * sent too many wrong tokens it throws the 429 with Retry-After for every request of that address,
 * whatever token it carries, until the window ends: were the right token let through, a locked-out
 * guesser would learn from a 200 among the 429s that it guessed right. Other addresses are not
 * affected, and the right token is never counted.
 */
export function createAdminGate({ token, now }: { token: string; now: () => number }) {
  const wrongTokens = createAttemptLimiter({ limit: WRONG_TOKENS_PER_MINUTE, windowMs: 60_000, now })
  return {
    admit(presented: string | undefined, clientAddress: string): void {
      const client = countedClient(clientAddress)
      const decision = wrongTokens.blocked(client)
      // `=== false` narrows under the scripts' loose typecheck too (tsconfig.scripts.json reads src).
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
