import { Redis } from 'ioredis'
import { ConfigError } from '../../core/errors/config-error.js'
import type { SharedState } from '../../core/state/shared-state.js'
import { createRedisBase, type RedisBase } from './create-redis-base.js'
import { createRedisKeys } from './create-redis-keys.js'
import { createRedisRequestLog } from './create-redis-request-log.js'
import { createRedisSessions } from './create-redis-sessions.js'
import { DEFAULT_REDIS_PREFIX, REDIS_LAYOUT, redisKeys } from './redis-keys.js'
import { redisScriptsClient } from './redis-scripts-client.js'

export { DEFAULT_REDIS_PREFIX }

export interface RedisStateOptions {
  /** e.g. `redis://127.0.0.1:6379`, `rediss://user:password@host:6380/2`. */
  url: string
  /** Every key's prefix: processes with the same URL and prefix are one sandbox. Default `petstore-sandbox:`. */
  prefix?: string
  /**
   * How long one Redis command may take, in ms, before its request is answered 503; the default
   * keeps a request's answer within the bound of docs/reliability.md#redis-trouble.
   */
  commandTimeoutMs?: number
}

/**
 * Connects to Redis (or Valkey) and returns the state a sandbox shares with every other process
 * connected with the same URL and prefix: `createSandbox({ shared: await connectRedisState(...) })`.
 * Rejects with a ConfigError naming the URL when Redis cannot be reached. Afterwards it never
 * throws at its host: while Redis is away, requests are answered 503 and the client reconnects by
 * itself (docs/decisions.md#d21).
 *
 * @example
 * const shared = await connectRedisState({ url: 'redis://127.0.0.1:6379', prefix: 'team-a:' })
 * const sandbox = createSandbox({ shared, seed: 7 })
 * await sandbox.ready()
 */
export async function connectRedisState({ url, prefix = DEFAULT_REDIS_PREFIX, commandTimeoutMs = 800 }: RedisStateOptions): Promise<SharedState> {
  if (typeof prefix !== 'string' || prefix.length === 0) throw new ConfigError('the Redis key prefix must not be empty')
  let shown: string
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new Error('not redis')
    shown = `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    throw new ConfigError(`the Redis URL must look like redis://host:6379, got ${JSON.stringify(url)}`)
  }
  const client = new Redis(url, {
    lazyConnect: true,
    // Requests must not queue up behind a lost connection: they are answered 503 at once, and the
    // client keeps reconnecting on its own.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: commandTimeoutMs,
    retryStrategy: () => 250,
    // Not auto-pipelining: it holds new commands back while a batch waits for its answers, so one
    // slow answer would delay every request behind it past its own timeout.
    enableAutoPipelining: false,
  })
  // Without a listener ioredis would throw its connection errors at the process.
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (error) {
    client.disconnect()
    throw new ConfigError(`cannot reach Redis at ${shown}: ${(error as Error).message}`)
  }
  // A node of a Redis Cluster answers the keys of other nodes' slots with MOVED: said at start, in
  // words (D21). A server that refuses INFO (renamed by a host) is taken as standalone.
  if (/^cluster_enabled:1\b/m.test(await client.info('cluster').catch(() => ''))) {
    client.disconnect()
    throw new ConfigError(
      `Redis at ${shown} is a node of a Redis Cluster, which is not supported: the shared state needs a standalone Redis or Valkey server (a primary, with replicas if you like)`,
    )
  }

  // The scripts copy keys (COPY) and ask for several members at once (SMISMEMBER): Redis 6.2 on.
  const version = /^redis_version:(\d+)\.(\d+)/m.exec(await client.info('server').catch(() => ''))
  if (version !== null && Number(version[1]) * 100 + Number(version[2]) < 602) {
    client.disconnect()
    throw new ConfigError(`Redis at ${shown} is version ${version[1]}.${version[2]}: the shared state needs Redis 6.2 or later, or Valkey`)
  }
  const keys = redisKeys(prefix, client.options.db ?? 0)
  const scripts = redisScriptsClient(client)
  const where = `Redis at ${shown} (prefix ${prefix})`
  // A state written in another key layout is refused rather than misread (docs/decisions.md#d21).
  const [layout, oldGeneration] = await client.hmget(keys.meta, 'layout', 'gen')
  if (layout === null && oldGeneration !== null) {
    client.disconnect()
    throw new ConfigError(
      `${where} holds a state written by an older petstore-sandbox, in a key layout this one does not read: start with another --redis-prefix, or delete the keys under ${prefix} (every pet, session and runtime key stored there goes)`,
    )
  }
  if (layout !== null && layout !== REDIS_LAYOUT) {
    client.disconnect()
    throw new ConfigError(
      `${where} holds a state in key layout ${layout}, written by another version of petstore-sandbox: start with another --redis-prefix, or with that version`,
    )
  }

  let base: RedisBase | undefined
  const baseOf = () => {
    if (base === undefined) throw new Error('the shared pets are read before the sandbox gave their seeding')
    return base
  }
  // The sandbox's time source, once it gives it (with the rate limits); real time until then.
  let source: () => number = Date.now
  const worlds = createRedisSessions({ client, scripts, keys, base: baseOf, source: () => source() })
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
    sessions: (policy) => worlds.bound(policy),
    requestLog(capacity) {
      const log = createRedisRequestLog({ scripts, client, keys, capacity, generation: worlds.generation })
      logs.push(log)
      return log
    },
    notReady: () => (client.status === 'ready' ? undefined : `${where} is unreachable`),
    async close() {
      apiKeys.close()
      worlds.close()
      for (const log of logs) log.close()
      await client.quit().catch(() => client.disconnect())
    },
  }
}
