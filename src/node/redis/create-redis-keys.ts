import type { KeyChanges, KeyStorage } from '../../core/auth/key-storage.js'
import type { RedisClient } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

// docs/running-for-a-team.md#several-replicas-one-redis
const FOLLOW_MS = 1_000

export interface RedisKeysOptions {
  client: RedisClient
  meta: string
}

/** Creates the runtime key changes in Redis, versioned in one transaction, followed each second. */
export async function createRedisKeys({ client, meta }: RedisKeysOptions): Promise<KeyStorage & { close(): void }> {
  const followed = await followMetaField<KeyChanges>(client, meta, 'keys', 'kv')
  let taken = followed.version()
  return {
    restored: followed.value() ?? { put: [], revoked: [] },
    async commit(next) {
      await followed.set(next)
      taken = followed.version()
    },
    news() {
      if (followed.version() === taken) return undefined
      taken = followed.version()
      return followed.value()
    },
    close: followed.close,
  }
}

/** Follows a versioned JSON value in the meta hash. */
async function followMetaField<T>(client: RedisClient, meta: string, field: string, versionField: string) {
  const read = async () => {
    const [text, version] = await client.hmget(meta, field, versionField)
    return { value: text ? (JSON.parse(text) as T) : undefined, version: version ?? '0' }
  }
  let { value, version } = await read()
  const timer = setInterval(() => {
    read()
      .then((latest) => {
        if (latest.version !== version) ({ value, version } = latest)
      })
      .catch(() => undefined)
  }, FOLLOW_MS)
  timer.unref()
  return {
    value: (): T | undefined => value,
    version: () => version,
    async set(next: T): Promise<void> {
      const [[, bumped] = []] =
        (await client
          .multi()
          .hincrby(meta, versionField, 1)
          .hset(meta, field, JSON.stringify(next))
          .exec()
          .catch(redisUnavailable)) ?? []
      value = next
      version = String(bumped)
    },
    close: () => clearInterval(timer),
  }
}
