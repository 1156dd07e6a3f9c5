import { Cluster } from 'ioredis'
import { slotOf } from './redis-keys.js'
import type { RedisClient } from './redis-scripts-client.js'

/**
 * Which writes wait for a replica (docs/decisions.md#d44): on a Redis Cluster, a pet stored in a
 * slot whose master has a replica is answered only once a replica has it too (WAIT), so that a
 * master's failover loses no pet answered 201. Read from ioredis's map of the slots, which follows
 * failovers and reshardings.
 */
export function createRedisReplication(client: RedisClient, waitMs: number) {
  const nodes = (slot: number) => (client instanceof Cluster ? (client.slots[slot]?.length ?? 0) : 0)
  return {
    /** How long a write waits for a replica, in ms, before it is answered 503. */
    waitMs,
    /** Whether a write to `key` waits for a replica. */
    waits: (key: string) => nodes(slotOf(key)) > 1,
    /** The masters without a replica, in words, or undefined when every one has one (or on a standalone Redis). */
    detail(): string | undefined {
      if (!(client instanceof Cluster)) return undefined
      const masters = new Map<string, number>()
      for (const serving of client.slots) if (serving?.[0] !== undefined) masters.set(serving[0], serving.length)
      const alone = [...masters].filter(([, count]) => count < 2).map(([master]) => master)
      if (alone.length === 0) return undefined
      return `${alone.length} of ${masters.size} Redis Cluster masters have no replica (${alone.join(', ')}): a pet created there is lost if its master is`
    },
  }
}

export type RedisReplication = ReturnType<typeof createRedisReplication>
