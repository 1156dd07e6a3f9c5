import { setTimeout as sleep } from 'node:timers/promises'
import { Cluster, Redis, type RedisOptions } from 'ioredis'
import { ConfigError } from '../../core/errors/config-error.js'
import type { SharedState } from '../../core/state/shared-state.js'
import { coalesceWrites } from './coalesce-writes.js'
import { createRedisBase, type RedisBase } from './create-redis-base.js'
import { createRedisKeys } from './create-redis-keys.js'
import { createRedisRequestLog } from './create-redis-request-log.js'
import { createRedisSessions } from './create-redis-sessions.js'
import {
  createRedisFailover,
  DEFAULT_CLUSTER_NODE_TIMEOUT_MS,
  FAILOVER_RETRY_MS,
  failoverBoundMs,
} from './redis-failover.js'
import { createRedisReplication } from './redis-replication.js'
import { DEFAULT_REDIS_PREFIX, REDIS_LAYOUT, redisKeys } from './redis-keys.js'
import { type RedisClient, redisScriptsClient } from './redis-scripts-client.js'

export { DEFAULT_REDIS_PREFIX }

export interface RedisStateOptions {
  /** e.g. `redis://127.0.0.1:6379`, `rediss://user:password@host:6380/2`. */
  url: string
  /** Every key's prefix: processes with the same URL and prefix are one sandbox. */
  prefix?: string
  /** Bounds a Redis command in ms before a 503 (D44). */
  commandTimeoutMs?: number
}

/**
 * Connects to Redis (or Valkey) for state shared by every process with the same URL and prefix (D21).
 *
 * @example
 * const shared = await connectRedisState({ url: 'redis://127.0.0.1:6379', prefix: 'team-a:' })
 * const sandbox = createSandbox({ shared, seed: 7 })
 * await sandbox.ready()
 */
export async function connectRedisState({
  url,
  prefix = DEFAULT_REDIS_PREFIX,
  commandTimeoutMs = 800,
}: RedisStateOptions): Promise<SharedState> {
  if (typeof prefix !== 'string' || prefix.length === 0) throw new ConfigError('the Redis key prefix must not be empty')
  const urls = url.split(',').map((each) => each.trim())
  const parsed = urls.map((each) => {
    try {
      const found = new URL(each)
      if (found.protocol !== 'redis:' && found.protocol !== 'rediss:') throw new Error('not redis')
      return found
    } catch {
      throw new ConfigError(
        "the Redis URL must look like redis://host:6379 (or a list of a cluster's nodes, comma-separated), " +
          `got ${JSON.stringify(url)}`,
      )
    }
  })
  const shown = parsed
    .map((found) => `${found.protocol}//${found.host}${found.pathname === '/' ? '' : found.pathname}`)
    .join(',')
  const first = new Redis(urls[0]!, {
    ...connectionOptions(commandTimeoutMs),
    lazyConnect: true,
    // Auto-pipelining off: one slow answer would delay every request behind it.
    enableAutoPipelining: false,
  })
  // Unheard, ioredis errors would crash the process.
  first.on('error', () => undefined)
  coalesceWrites(first)
  try {
    await first.connect()
  } catch (error) {
    first.disconnect()
    throw new ConfigError(`cannot reach Redis at ${shown}: ${(error as Error).message}`)
  }
  // A server that refuses INFO (renamed by a host) is taken as standalone.
  const cluster = /^cluster_enabled:1\b/m.test(await first.info('cluster').catch(() => ''))
  // COPY and SMISMEMBER: Redis 6.2 on.
  const version = /^redis_version:(\d+)\.(\d+)/m.exec(await first.info('server').catch(() => ''))
  if (version !== null && Number(version[1]) * 100 + Number(version[2]) < (cluster ? 700 : 602)) {
    first.disconnect()
    const needed = cluster ? '7.0 or later on a cluster (sharded pub/sub)' : '6.2 or later'
    throw new ConfigError(
      `Redis at ${shown} is version ${version[1]}.${version[2]}: the shared state needs Redis ${needed}, or Valkey`,
    )
  }
  if (!cluster && urls.length > 1) {
    first.disconnect()
    throw new ConfigError(
      `Redis at ${parsed[0]!.host} is not a node of a Redis Cluster: ` +
        "a list of URLs names a cluster's nodes; give a standalone Redis one URL",
    )
  }
  let client: RedisClient = first
  // None on a standalone Redis (D44).
  let boundMs = 0
  if (cluster) {
    const state = /^cluster_state:(\w+)/m.exec(String(await first.call('CLUSTER', 'INFO').catch(() => '')))?.[1]
    const told = ((await first.call('CONFIG', 'GET', 'cluster-node-timeout').catch(() => [])) as string[])[1]
    boundMs = failoverBoundMs(Number(told) > 0 ? Number(told) : DEFAULT_CLUSTER_NODE_TIMEOUT_MS)
    first.disconnect()
    if (state !== 'ok') {
      throw new ConfigError(
        `the Redis Cluster at ${shown} does not serve every slot (cluster_state:${state ?? 'unknown'}): ` +
          'create it first (docs/running-for-a-team.md#more-than-one-redis)',
      )
    }
    client = await connectCluster(parsed, shown, prefix, commandTimeoutMs, boundMs)
  }
  const keys = redisKeys(prefix, { db: cluster ? 0 : (first.options.db ?? 0), cluster })
  const scripts = redisScriptsClient(client)
  const where = `Redis at ${shown} (prefix ${prefix})`
  // Another key layout is refused rather than misread (D21).
  const [layout, oldGeneration] = await client.hmget(keys.meta, 'layout', 'gen')
  if (layout === null && oldGeneration !== null) {
    client.disconnect()
    throw new ConfigError(
      `${where} holds a state written by an older petstore-sandbox, in a key layout this one does not read: ` +
        `start with another --redis-prefix, or delete the keys under ${prefix} ` +
        '(every pet, session and runtime key stored there goes)',
    )
  }
  if (layout !== null && layout !== REDIS_LAYOUT) {
    client.disconnect()
    throw new ConfigError(
      `${where} holds a state in key layout ${layout}, written by another version of petstore-sandbox: ` +
        'start with another --redis-prefix, or with that version',
    )
  }
  // On a cluster the groups' meta hashes are apart (switchBase writes them).
  if (cluster) await client.hsetnx(keys.meta, 'layout', REDIS_LAYOUT)

  let base: RedisBase | undefined
  const baseOf = () => {
    if (base === undefined) throw new Error('the shared pets are read before the sandbox gave their seeding')
    return base
  }
  let source: () => number = Date.now
  const failover = createRedisFailover({ client, boundMs })
  // One WAIT's share of a command's time (D44).
  const replication = await createRedisReplication({ client, waitMs: Math.floor(commandTimeoutMs * 0.6), failover })
  const worlds = createRedisSessions({
    client,
    scripts,
    keys,
    base: baseOf,
    source: () => source(),
    replication,
    failover,
  })
  const logs: Array<{ close(): void }> = []
  const apiKeys = await createRedisKeys({ client, meta: keys.meta })
  const { world } = worlds.default

  return {
    where: shown,
    pets(seeding, limits) {
      base ??= createRedisBase({ client, scripts, keys, where, seeding })
      return world.pets(seeding, limits)
    },
    rateLimits(policy) {
      source = policy.source
      return world.rateLimits(policy)
    },
    clockOffset: world.clockOffset,
    faults: world.faults,
    scenarios: world.scenarios,
    keys: apiKeys,
    boundKeys: worlds.boundKeys,
    sessions: (policy) => worlds.bound(policy),
    requestLog(capacity) {
      const log = createRedisRequestLog({ scripts, client, keys, capacity, generation: worlds.generation })
      logs.push(log)
      return log
    },
    notReady: () => (client.status === 'ready' ? undefined : `${where} is unreachable`),
    detail: () => replication.detail(),
    ...(cluster ? { failoverBoundMs: boundMs } : {}),
    async close() {
      apiKeys.close()
      worlds.close()
      replication.close()
      for (const log of logs) log.close()
      await client.quit().catch(() => client.disconnect())
    },
  }
}

function connectionOptions(commandTimeoutMs: number): RedisOptions {
  return {
    // A 503 at once, not queued behind a lost connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: commandTimeoutMs,
    retryStrategy: () => 250,
  }
}

const CLUSTER_START_MS = 10_000

async function connectCluster(
  nodes: URL[],
  shown: string,
  prefix: string,
  commandTimeoutMs: number,
  boundMs: number,
): Promise<Cluster> {
  if (/[{}]/.test(prefix))
    throw new ConfigError(
      'the Redis key prefix must not hold { or } on a Redis Cluster, which reads them as a hash tag, ' +
        `got ${JSON.stringify(prefix)}`,
    )
  const database = nodes.find((node) => node.pathname !== '' && node.pathname !== '/' && node.pathname !== '/0')
  if (database !== undefined)
    throw new ConfigError(`a Redis Cluster has database 0 only, got ${database.pathname.slice(1)} in ${shown}`)
  const [{ username, password, protocol }] = nodes as [URL, ...URL[]]
  const client = new Cluster(
    nodes.map((node) => ({ host: node.hostname, port: Number(node.port || 6379) })),
    {
      lazyConnect: true,
      enableOfflineQueue: false,
      scaleReads: 'master',
      retryDelayOnFailover: FAILOVER_RETRY_MS,
      retryDelayOnClusterDown: FAILOVER_RETRY_MS,
      retryDelayOnTryAgain: FAILOVER_RETRY_MS,
      maxRedirections: Math.ceil(boundMs / FAILOVER_RETRY_MS) + 16,
      clusterRetryStrategy: () => 250,
      slotsRefreshTimeout: commandTimeoutMs,
      enableAutoPipelining: false,
      redisOptions: {
        ...connectionOptions(commandTimeoutMs),
        commandTimeout: boundMs,
        ...(username === '' ? {} : { username: decodeURIComponent(username) }),
        ...(password === '' ? {} : { password: decodeURIComponent(password) }),
        ...(protocol === 'rediss:' ? { tls: {} } : {}),
      },
    },
  )
  client.on('error', () => undefined)
  client.on('+node', coalesceWrites)
  try {
    // ioredis would keep trying a cluster it cannot map.
    await Promise.race([
      client.connect(),
      sleep(CLUSTER_START_MS).then(() => {
        throw new Error(`no map of its slots within ${CLUSTER_START_MS / 1000} s`)
      }),
    ])
  } catch (error) {
    client.disconnect()
    throw new ConfigError(`cannot reach the Redis Cluster at ${shown}: ${(error as Error).message}`)
  }
  return client
}
