import { Cluster, type ChainableCommander } from 'ioredis'
import type { RedisFailover } from './redis-failover.js'
import { slotOf } from './redis-keys.js'
import type { RedisClient } from './redis-scripts-client.js'

// How often a standalone Redis is asked how many replicas it has.
const REPLICAS_EVERY_MS = 1_000

export interface RedisReplicationOptions {
  client: RedisClient
  /** How long one WAIT waits for a replica, in ms. */
  waitMs: number
  /** How calls ride out a failover: a write waits for a replica at most its bound (at least one WAIT). */
  failover: RedisFailover
}

/**
 * Which writes wait for a replica (docs/decisions.md#d44): a pet stored where a replica serves
 * beside the master (a slot's replicas on a Redis Cluster, from ioredis's map of the slots, which
 * follows failovers and reshardings; a standalone Redis's connected replicas, asked once a second)
 * is answered only once a replica has it too (WAIT), so that losing the master loses no pet
 * answered 201.
 */
export async function createRedisReplication({ client, waitMs, failover }: RedisReplicationOptions) {
  const cluster = client instanceof Cluster ? client : undefined
  // A standalone Redis's connected replicas, as it last told.
  let replicas = 0
  const ask = async () => {
    const info = await client.info('replication').catch(() => undefined)
    if (info !== undefined) replicas = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? '0')
  }
  let timer: NodeJS.Timeout | undefined
  if (cluster === undefined) {
    await ask()
    timer = setInterval(() => void ask(), REPLICAS_EVERY_MS).unref()
  }
  const servers = (slot: number) => (cluster === undefined ? 1 + replicas : (cluster.slots[slot]?.length ?? 0))
  /** Whether a write to `key` waits for a replica. */
  const waits = (key: string) => servers(slotOf(key)) > 1
  /** The connection of the master serving `key` now: the one its script went on, where WAIT counts that script's write. */
  const masterOf = (key: string) => {
    if (cluster === undefined) return client
    const serving = cluster.slots[slotOf(key)]?.[0]
    const found = cluster.nodes('master').find(({ options }) => `${options.host}:${options.port}` === serving)
    if (found === undefined) throw new Error(`no master serves the slot of ${key}`)
    return found
  }

  return {
    waits,
    /**
     * Runs the write `send` puts in a pipeline (one script on `key`) and answers its reply once a
     * replica acknowledged it, or at once when `stored` says the reply stored nothing; WAIT goes
     * in the same round trip. Without an acknowledgement it waits again while a replica still
     * serves beside the master (after a failover the promoted replica may have none: then the
     * write stands alone), within the failover's bound; past it, it throws (a 503).
     */
    async replicated(key: string, send: (pipeline: ChainableCommander) => void, stored: (reply: unknown) => boolean) {
      const started = failover.now()
      const pipeline = client.pipeline()
      send(pipeline)
      pipeline.call('WAIT', 1, waitMs)
      const [[error, reply] = [], [waitError, acknowledged] = []] = (await pipeline.exec()) ?? []
      if (error) throw error
      if (!stored(reply)) return reply
      // The script ran, its acknowledgement lost with the connection: whether a replica has it is unknown.
      if (waitError) throw waitError
      let count = Number(acknowledged)
      while (count < 1) {
        // Asked again, so that a replica gone (or a master failed over) shows.
        if (cluster === undefined) await ask()
        else await new Promise<void>((resolve) => cluster.refreshSlotsCache(() => resolve()))
        if (!waits(key)) break
        if (failover.now() - started + waitMs > Math.max(failover.boundMs, waitMs))
          throw new Error('no replica acknowledged the write in time')
        count = Number(await masterOf(key).call('WAIT', 1, waitMs))
      }
      return reply
    },
    /** The masters without a replica, in words, or undefined when every one has one. */
    detail(): string | undefined {
      if (cluster === undefined)
        return replicas > 0
          ? undefined
          : 'Redis has no replica: a pet created is lost if Redis is, but for what it persists'
      const masters = new Map<string, number>()
      for (const serving of cluster.slots) if (serving?.[0] !== undefined) masters.set(serving[0], serving.length)
      const alone = [...masters].filter(([, count]) => count < 2).map(([master]) => master)
      if (alone.length === 0) return undefined
      return `${alone.length} of ${masters.size} Redis Cluster masters have no replica (${alone.join(', ')}): a pet created there is lost if its master is`
    },
    close: () => clearInterval(timer),
  }
}

export type RedisReplication = Awaited<ReturnType<typeof createRedisReplication>>
