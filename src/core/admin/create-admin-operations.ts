import { ConfigError } from '../errors/config-error.js'
import { ErrorCode } from '../errors/error-code.js'
import { HttpError } from '../errors/http-error.js'
import type { FaultOptions } from '../faults/fault-config.js'
import type { QuotaChange } from '../rate-limit/create-rate-limiter.js'
import type { AdminControls } from './admin-controls.js'

/** An admin operation's input, valid against fixtures/admin-openapi.yaml by the time it runs. */
export interface AdminInput {
  params: Record<string, string>
  query: Record<string, string | string[]>
  body: Record<string, unknown> | undefined
}

type AdminOperation = (input: AdminInput) => unknown

/**
 * The admin API's operations by operationId, each a call to the sandbox's controls. Only what
 * the schema cannot say is checked here (an instant that parses, a key that is configured).
 */
export function createAdminOperations(controls: AdminControls): Record<string, AdminOperation> {
  const clockBody = () => ({ now: new Date(controls.clock.now()).toISOString() })
  const keyState = (key: string, read: () => unknown) => {
    try {
      return { key, quota: read() }
    } catch (error) {
      if (error instanceof ConfigError) throw new HttpError(404, ErrorCode.notFound, error.message)
      throw error
    }
  }
  return {
    health: () => ({ status: 'ok', now: clockBody().now }),
    getState: () => controls.state(),
    async reset({ query }) {
      await controls.reset({ clock: query.clock === 'true' })
      return controls.state()
    },
    getClock: clockBody,
    moveClock({ body }) {
      if (typeof body?.set === 'string') {
        if (!Number.isFinite(Date.parse(body.set)))
          throw new HttpError(400, ErrorCode.invalidRequest, 'set must be an ISO 8601 instant such as 2030-12-06T00:00:00Z')
        controls.clock.set(body.set)
      } else {
        controls.clock.advance(body?.advanceMs as number)
      }
      return clockBody()
    },
    getKey: ({ params }) => keyState(params.key!, () => controls.quota.get(params.key!)),
    arrangeKey: ({ params, body }) => keyState(params.key!, () => controls.quota.set(params.key!, body as QuotaChange)),
    getFaults: () => controls.faults.get(),
    setFaults: ({ body }) => controls.faults.set(body as FaultOptions),
    listRequests({ query }) {
      const limit = query.limit
      return { requests: controls.requests(typeof limit === 'string' ? Number(limit) : undefined) }
    },
  }
}
