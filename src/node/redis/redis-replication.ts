import { Cluster, type ChainableCommander } from 'ioredis'
import type { RedisFailover } from './redis-failover.js'
import { slotOf } from './redis-keys.js'
import type { RedisClient } from './redis-scripts-client.js'

const REPLICAS_EVERY_MS = 1_000
// Bounds a write's wait for a standalone Redis's replica (D44).
export const STANDALONE_ACK_BOUND_MS = 3_000

export interface RedisReplicationOptions {
  client: RedisClient
  waitMs: number
  failover: RedisFailover
}

/** Makes a write wait for a replica where one serves, so losing the master loses no pet answered 201 (D44). */
export async function createRedisReplication({ client, waitMs, failover }: RedisReplicationOptions) {
  const cluster = client instanceof Cluster ? client : undefined
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
  const waits = (key: string) => servers(slotOf(key)) > 1
  /** Returns the master serving `key` now, where WAIT counts its script's write. */
  const masterOf = (key: string) => (cluster === undefined ? client : nodeAt(cluster.slots[slotOf(key)]?.[0] ?? ''))
  const nodeAt = (address: string) => {
    const found = cluster?.nodes('all').find(({ options }) => `${options.host}:${options.port}` === address)
    if (found === undefined) throw new Error(`no connection to the Redis Cluster node ${address}`)
    return found
  }

  return {
    waits,
    /** Answers `send`'s reply once a replica has the write, or `stillThere` finds it after a lost WAIT (D44). */
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
      let ranOn: RedisClient | undefined
      if (error) {
        if (cluster === undefined || !failover.again(error)) throw error
        const asked = /^ASK \d+ (\S+)/.exec((error as Error).message)?.[1]
        reply = await send(client)
        ranOn = asked === undefined ? masterOf(key) : nodeAt(asked)
        count = 0
      } else if (waitError && stored(reply)) {
        // The WAIT went with its master: the write stands if the promoted replica has it.
        if (!failover.again(waitError) || !(await stillThere(reply).catch(() => false))) throw waitError
        return reply
      }
      if (!stored(reply)) return reply
      while (count < 1) {
        if (ranOn === undefined) {
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
    /** Says which masters have no replica; undefined when all have one. */
    detail(): string | undefined {
      if (cluster === undefined)
        return replicas > 0
          ? undefined
          : 'Redis has no replica: a pet created is lost if Redis is, but for what it persists'
      const masters = new Map<string, number>()
      for (const serving of cluster.slots) if (serving?.[0] !== undefined) masters.set(serving[0], serving.length)
      const alone = [...masters].filter(([, count]) => count < 2).map(([master]) => master)
      if (alone.length === 0) return undefined
      return (
        `${alone.length} of ${masters.size} Redis Cluster masters have no replica (${alone.join(', ')}): ` +
        'a pet created there is lost if its master is'
      )
    },
    close: () => clearInterval(timer),
  }
}

export type RedisReplication = Awaited<ReturnType<typeof createRedisReplication>>
