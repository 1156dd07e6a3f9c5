import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js'
import { createContractChecker } from './contract-checker.js'

export const API = 'http://api.test/v1'

/**
 * A sandbox served in-process through msw's `setupServer`, fresh state before each test, and
 * every mocked response checked against the contract.
 */
export function useInProcessSandbox(options: SandboxOptions = {}) {
  const sandbox: Sandbox = createSandbox(options)
  const server = setupServer(...sandbox.handlers)
  const contract = createContractChecker()
  server.events.on('response:mocked', ({ request, response }) => contract.check(request.method, request.url, response))

  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  beforeEach(() => sandbox.reset())
  afterAll(() => server.close())

  return {
    sandbox,
    server,
    contract,
    /** fetch against the API with a key (default: the free demo key); `key: null` sends none. */
    api(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
      const { key = 'sandbox-free-key', ...rest } = init
      const headers = new Headers(rest.headers)
      if (key !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${key}`)
      return fetch(`${API}${path}`, { ...rest, headers })
    },
  }
}
