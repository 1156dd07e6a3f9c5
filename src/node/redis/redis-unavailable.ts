import { ErrorCode } from '../../core/errors/error-code.js'
import { HttpError } from '../../core/errors/http-error.js'

/** Throws the 503 a client may retry while Redis cannot be reached (docs/reliability.md#redis-trouble). */
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
