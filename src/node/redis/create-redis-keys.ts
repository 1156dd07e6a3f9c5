import type { Redis } from 'ioredis'
import type { KeyChanges, KeyStorage } from '../../core/auth/key-storage.js'
import { redisUnavailable } from './redis-unavailable.js'

// How often a process looks for key changes another process made; a change is in force on every
// process within this time (docs/running-for-a-team.md#several-replicas-one-redis).
const FOLLOW_MS = 1_000

export interface RedisKeysOptions {
  client: Redis
  /** The shared sandbox's meta hash: its `keys` field holds the changes, `kv` their version. */
  meta: string
}

/**
 * Runtime key changes in Redis, shared by every process of the sandbox and kept as long as Redis
 * keeps the pets: each change replaces the whole set and bumps its version in one transaction;
 * each process reads them at start and looks for a newer version every second.
 */
export async function createRedisKeys({ client, meta }: RedisKeysOptions): Promise<KeyStorage & { close(): void }> {
  const empty: KeyChanges = { put: [], revoked: [] }
  const read = async () => {
    const [text, version] = await client.hmget(meta, 'keys', 'kv')
    return { changes: text ? (JSON.parse(text) as KeyChanges) : empty, version: version ?? '0' }
  }
  let { changes, version } = await read()
  let taken = version
  const timer = setInterval(() => {
    read()
      .then((latest) => {
        if (latest.version !== version) ({ changes, version } = latest)
      })
      // Redis away: the keys stay as they were until it answers again.
      .catch(() => undefined)
  }, FOLLOW_MS)
  timer.unref()
  return {
    restored: changes,
    async commit(next) {
      const [[, bumped] = []] = (await client.multi().hincrby(meta, 'kv', 1).hset(meta, 'keys', JSON.stringify(next)).exec().catch(redisUnavailable)) ?? []
      changes = next
      version = String(bumped)
      taken = version
    },
    news() {
      if (version === taken) return undefined
      taken = version
      return changes
    },
    close: () => clearInterval(timer),
  }
}
