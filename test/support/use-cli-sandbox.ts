import { afterAll, beforeAll } from 'vitest'
import { createContractChecker } from './contract-checker.js'
import { startCli, type CliProcess } from './start-cli.js'

/**
 * The real CLI process for a test file (`start --port 0 <args>`), and `call`, the one way the
 * file's tests make requests: every response is checked against the contract.
 */
export function useCliSandbox(args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  let cli: CliProcess | undefined
  const contract = createContractChecker()

  beforeAll(async () => {
    cli = await startCli(['--log', 'off', ...args], env)
  })
  afterAll(async () => {
    await cli?.stop()
  })

  return {
    contract,
    cli: () => cli!,
    /** The API base of the running process. */
    url: () => cli!.url,
    /** fetch `path` below /v1 with a key (default: the enterprise demo key, whose quota a file never spends); `key: null` sends none. */
    async call(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
      const { key = 'sandbox-enterprise-key', ...rest } = init
      const headers = new Headers(rest.headers)
      if (key !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${key}`)
      const url = path.startsWith('http') ? path : `${cli!.url}${path}`
      const response = await fetch(url, { ...rest, headers })
      contract.check(rest.method ?? 'GET', url, response)
      return response
    },
  }
}
