import { Cluster, type ChainableCommander } from 'ioredis'
import type { RedisFailover } from './redis-failover.js'
import { slotOf } from './redis-keys.js'
import type { RedisClient } from './redis-scripts-client.js'

// How often a standalone Redis is asked how many replicas it has.
const REPLICAS_EVERY_MS = 1_000
// How long a write waits for a standalone Redis's replica, in WAITs of `waitMs` (docs/decisions.md#d44).
export const STANDALONE_ACK_BOUND_MS = 3_000

export interface RedisReplicationOptions {
  client: RedisClient
  /** How long one WAIT waits for a replica, in ms. */
  waitMs: number
  /** How calls ride out a failover: a write waits for a replica at most its bound (at least one WAIT). */
  failover: RedisFailover
}

/** Makes a write wait for a replica where one serves (WAIT), so losing the master loses no pet answered 201 (D44). */
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
  /** Returns the connection of the master serving `key` now, where WAIT counts its script's write. */
  const masterOf = (key: string) => (cluster === undefined ? client : nodeAt(cluster.slots[slotOf(key)]?.[0] ?? ''))
  /** The connection to the cluster's node at `address` (host:port). */
  const nodeAt = (address: string) => {
    const found = cluster?.nodes('all').find(({ options }) => `${options.host}:${options.port}` === address)
    if (found === undefined) throw new Error(`no connection to the Redis Cluster node ${address}`)
    return found
  }

  return {
    waits,
    /**
     * Runs the write `send` makes (one script on `key`, on a pipeline or the client) and answers its
     * reply once a replica acknowledged it, or at once when `stored` says the reply stored nothing;
     * when the acknowledgement was lost with the master, once `stillThere` finds the write.
     * WAIT goes in the same pipeline; a script redirected there (ASK, MOVED: the slot moving or
     * moved) or not run (its master away) is sent alone, which ioredis follows and tries again,
     * and WAIT then goes to the master that ran it. Without an acknowledgement it waits again
     * while a replica still serves beside the master (after a failover the promoted replica may
     * have none: then the write stands alone), within the failover's bound (a standalone Redis's:
     * STANDALONE_ACK_BOUND_MS); past it, it throws (a 503).
     */
    async replicated(
      key: string,
      send: (on: ChainableCommander | RedisClient) => Promise<unknown> | unknown,
      stored: (reply: unknown) => boolean,
      stillThere: (reply: unknown) => Promise<boolean>,
    ) {
      const started = failover.now()
      const pipeline = client.pipeline()
      send(pipeline)
      pipeline.call('WAIT', 1, waitMs)
      const [[error, piped] = [], [waitError, acknowledged] = []] = (await pipeline.exec()) ?? []
      let reply = piped
      let count = Number(acknowledged)
      // Where the script ran, when it was sent alone: an ASK names the master the slot moves to.
      let ranOn: RedisClient | undefined
      if (error) {
        if (cluster === undefined || !failover.again(error)) throw error
        const asked = /^ASK \d+ (\S+)/.exec((error as Error).message)?.[1]
        reply = await send(client)
        ranOn = asked === undefined ? masterOf(key) : nodeAt(asked)
        count = 0
      } else if (waitError && stored(reply)) {
        // The script ran, its acknowledgement lost with its master's connection: the write stands
        // if the master serving the slot now (after a failover, the replica promoted) has it.
        if (!failover.again(waitError) || !(await stillThere(reply).catch(() => false))) throw waitError
        return reply
      }
      if (!stored(reply)) return reply
      while (count < 1) {
        if (ranOn === undefined) {
          // Asked again, so that a replica gone (or a master failed over) shows.
          if (cluster === undefined) await ask()
          else await new Promise<void>((resolve) => cluster.refreshSlotsCache(() => resolve()))
          if (!waits(key)) break
          const boundMs = cluster === undefined ? STANDALONE_ACK_BOUND_MS : failover.boundMs
          if (failover.now() - started + waitMs > Math.max(boundMs, waitMs))
            throw new Error('no replica acknowledged the write in time')
        }
        count = Number(await (ranOn ?? masterOf(key)).call('WAIT', 1, waitMs))
        ranOn = undefined
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
