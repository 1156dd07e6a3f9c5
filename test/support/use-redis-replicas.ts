import { afterAll, beforeAll } from 'vitest'
import { createAdminContractChecker } from './admin-contract.js'
import { createContractChecker } from './contract-checker.js'
import { startCli, type CliProcess } from './start-cli.js'
import { startRedis, type RedisServer } from './start-redis.js'

export const ADMIN_TOKEN = 'admin-token-for-redis-tests'

/**
 * A real Redis of the file's own and CLI processes sharing it (`--redis`), plus `call` and `admin`
 * to reach any of them by index: every answer is checked against fixtures/openapi.yaml or
 * fixtures/admin-openapi.yaml.
 */
export function useRedisReplicas(count: number, args: string[] = []) {
  let redis: RedisServer | undefined
  const replicas: CliProcess[] = []
  const contract = createContractChecker()
  const adminContract = createAdminContractChecker()
  const startReplica = async (extra: string[] = []) => startCli(['--log', 'off', '--redis', redis!.url, '--admin-token', ADMIN_TOKEN, ...args, ...extra])

  beforeAll(async () => {
    redis = await startRedis()
    // One after the other: the first seeds, the others find its pets.
    for (let i = 0; i < count; i++) replicas.push(await startReplica())
  })
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')))
    await redis?.remove()
  })

  return {
    contract,
    redis: () => redis!,
    replica: (index: number) => replicas[index]!,
    startReplica,
    /** Puts a fresh process in place of replica `index` (after it was stopped). */
    replace: async (index: number) => {
      replicas[index] = await startReplica()
      return replicas[index]
    },
    /** fetch `path` below /v1 of replica `index` with `key` (default: the enterprise demo key). */
    async call(index: number, path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
      const { key = 'sandbox-enterprise-key', ...rest } = init
      const headers = new Headers(rest.headers)
      headers.set('authorization', `Bearer ${key}`)
      const url = `${replicas[index]!.url}${path}`
      const response = await fetch(url, { ...rest, headers })
      contract.check(rest.method ?? 'GET', url, response)
      return response
    },
    /** fetch `path` below /__sandbox of replica `index` with the admin token. */
    async admin(index: number, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
      const { json, ...rest } = init
      const headers = new Headers(rest.headers)
      headers.set('authorization', `Bearer ${ADMIN_TOKEN}`)
      if (json !== undefined) headers.set('content-type', 'application/json')
      const url = `${replicas[index]!.url.replace(/\/v1$/, '')}/__sandbox${path}`
      const response = await fetch(url, { ...rest, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) })
      adminContract.check(rest.method ?? 'GET', url, response)
      return response
    },
  }
}
