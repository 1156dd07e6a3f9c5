import type { KeyChanges, KeyStorage } from '../../core/auth/key-storage.js'
import type { RedisClient } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

// How often a process looks for a change another process made; a change is in force on every
// process within this time (docs/running-for-a-team.md#several-replicas-one-redis).
const FOLLOW_MS = 1_000

export interface RedisKeysOptions {
  client: RedisClient
  /** The shared sandbox's meta hash: its `keys` field holds the changes, `kv` their version. */
  meta: string
}

/**
 * Runtime key changes in Redis, shared by every process of the sandbox and kept as long as Redis
 * keeps the pets: each change replaces the whole set and bumps its version in one transaction;
 * each process reads them at start and looks for a newer version every second.
 */
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

/**
 * A JSON value in a field of the meta hash, with its version in another: set replaces it and bumps
 * the version in one transaction; the value is read at start and again every second when the
 * version moved. `value()` is a new object only when it changed.
 */
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
      // Redis away: the value stays as it was until it answers again.
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
