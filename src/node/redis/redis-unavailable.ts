import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'

/**
 * The answer while Redis cannot be reached or does not answer in time: a 503 Error body a client
 * may retry, never a hang or a crash (docs/reliability.md#redis-trouble).
 */
export function redisUnavailable(error: unknown): never {
  if (error instanceof HttpError) throw error
  throw new HttpError(
    503,
    ErrorCode.serviceUnavailable,
    'The sandbox cannot reach its shared state (Redis) right now; retry in 1 s',
    {
      'retry-after': '1',
    },
  )
}
