import { afterAll, beforeAll } from 'vitest'
import { createAdminContractChecker } from './admin-contract.js'
import { createContractChecker } from './contract-checker.js'
import { startCli, type CliProcess } from './start-cli.js'
import { startRedis, type RedisServer } from './start-redis.js'
import { startRedisCluster, type RedisCluster } from './start-redis-cluster.js'

export const ADMIN_TOKEN = 'admin-token-for-redis-tests'

/**
 * A real Redis of the file's own and CLI processes sharing it (`--redis`), plus `call` and `admin`
 * to reach any of them by index: every answer is checked against fixtures/openapi.yaml or
 * fixtures/admin-openapi.yaml. With `cluster`, a Redis Cluster of 3 masters and 3 replicas
 * (test/support/start-redis-cluster.ts) instead, each replica given another master's URL.
 */
export function useRedisReplicas(count: number, args: string[] = [], { cluster: asCluster = false } = {}) {
  let redis: RedisServer | undefined
  let cluster: RedisCluster | undefined
  const replicas: CliProcess[] = []
  const contract = createContractChecker()
  const adminContract = createAdminContractChecker()
  const urlOf = (index: number) => (cluster === undefined ? redis!.url : cluster.nodes[index % 3]!.url)
  const startReplica = async (extra: string[] = [], index = replicas.length) =>
    startCli(['--log', 'off', '--redis', urlOf(index), '--admin-token', ADMIN_TOKEN, ...args, ...extra])

  beforeAll(async () => {
    if (asCluster) cluster = await startRedisCluster()
    else redis = await startRedis()
    // One after the other: the first seeds, the others find its pets.
    for (let i = 0; i < count; i++) replicas.push(await startReplica())
  }, 120_000)
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')))
    await redis?.remove()
    await cluster?.remove()
  })

  return {
    contract,
    redis: () => redis!,
    cluster: () => cluster!,
    replica: (index: number) => replicas[index]!,
    startReplica,
    /** Puts a fresh process in place of replica `index` (after it was stopped). */
    replace: async (index: number) => {
      replicas[index] = await startReplica([], index)
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
    /** fetch probe `path` (`/readyz`, `/healthz`) at the origin of replica `index`. */
    async probe(index: number, path: string): Promise<Response> {
      const url = `${replicas[index]!.url.replace(/\/v1$/, '')}${path}`
      const response = await fetch(url)
      adminContract.check('GET', url, response)
      return response
    },
    /** fetch `path` below /__sandbox of replica `index` with the admin token. */
    async admin(index: number, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
      const { json, ...rest } = init
      const headers = new Headers(rest.headers)
      headers.set('authorization', `Bearer ${ADMIN_TOKEN}`)
      if (json !== undefined) headers.set('content-type', 'application/json')
      const url = `${replicas[index]!.url.replace(/\/v1$/, '')}/__sandbox${path}`
      const response = await fetch(url, {
        ...rest,
        headers,
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      })
      adminContract.check(rest.method ?? 'GET', url, response)
      return response
    },
  }
}
