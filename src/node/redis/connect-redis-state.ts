import { Redis } from 'ioredis'
import { ConfigError } from '../../core/errors/config-error.js'
import type { ResolvedFaults } from '../../core/faults/fault-config.js'
import type { SharedState } from '../../core/state/shared-state.js'
import { createRedisKeys, createRedisScenarios } from './create-redis-keys.js'
import { createRedisPets } from './create-redis-pets.js'
import { createRedisRequestLog } from './create-redis-request-log.js'
import { createRedisRateLimits, type SharedNews } from './create-redis-rate-limits.js'
import { DEFAULT_REDIS_PREFIX, redisKeys } from './redis-keys.js'
import { redisScriptsClient } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

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

  const keys = redisKeys(prefix, client.options.db ?? 0)
  const scripts = redisScriptsClient(client)
  const where = `Redis at ${shown} (prefix ${prefix})`
  let offset = 0
  let faults: ResolvedFaults | undefined
  let faultsVersion = ''
  let generation = ''
  const [storedOffset, storedFaults, storedVersion, storedGeneration] = await client.hmget(keys.meta, 'offset', 'faults', 'fv', 'gen')
  const onNews = (news: SharedNews) => {
    offset = Number(news.offset)
    generation = news.generation
    if (news.faults !== null) {
      faults = JSON.parse(news.faults) as ResolvedFaults
      faultsVersion = news.faultsVersion
    }
  }
  onNews({ offset: storedOffset ?? '0', faultsVersion: storedVersion ?? '', faults: storedFaults ?? null, generation: storedGeneration ?? '' })

  let reseed: () => Promise<void> = () => Promise.resolve()
  const logs: Array<{ close(): void }> = []
  const apiKeys = await createRedisKeys({ client, meta: keys.meta })
  const scenarios = await createRedisScenarios({ client, meta: keys.meta })

  return {
    where: shown,
    pets(seeding, { maxPets }) {
      const pets = createRedisPets({ client, scripts, keys, where, seeding, maxPets })
      reseed = pets.reseed
      return pets
    },
    rateLimits: ({ source, banAfter, banSeconds }) =>
      createRedisRateLimits({ scripts, keys, source, banAfter, banSeconds, knownFaultsVersion: () => faultsVersion, onNews, reseed: () => reseed() }),
    clockOffset: {
      get: () => offset,
      async set(value) {
        await client.hset(keys.meta, 'offset', String(value)).catch(redisUnavailable)
        offset = value
      },
      async add(ms) {
        offset = Number(await client.hincrbyfloat(keys.meta, 'offset', ms).catch(redisUnavailable))
      },
      async refresh() {
        offset = Number((await client.hget(keys.meta, 'offset').catch(redisUnavailable)) ?? '0')
      },
    },
    faults: {
      current: () => faults,
      resets: () => generation,
      async set(next) {
        const [[, version] = []] =
          (await client.multi().hincrby(keys.meta, 'fv', 1).hset(keys.meta, 'faults', JSON.stringify(next)).exec().catch(redisUnavailable)) ?? []
        faults = next
        faultsVersion = String(version)
      },
    },
    keys: apiKeys,
    scenarios,
    requestLog(capacity) {
      const log = createRedisRequestLog({ scripts, client, keys, capacity, generation: () => generation })
      logs.push(log)
      return log
    },
    notReady: () => (client.status === 'ready' ? undefined : `${where} is unreachable`),
    async close() {
      apiKeys.close()
      scenarios.close()
      for (const log of logs) log.close()
      await client.quit().catch(() => client.disconnect())
    },
  }
}
