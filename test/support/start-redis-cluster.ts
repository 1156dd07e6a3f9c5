import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { startRedis, type RedisServer } from './start-redis.js'
import { REDIS_CLI } from './tiers.js'

const run = promisify(execFile)

/** The cluster-node-timeout of the test's cluster, in ms: a master is failed over about this long after it stops answering. */
export const CLUSTER_NODE_TIMEOUT_MS = 2_000

export interface RedisCluster {
  /** Every node, masters first as `redis-cli --cluster create` made them. */
  nodes: RedisServer[]
  /** The node serving `slot` as a master now, after any failover. */
  masterOf(slot: number): Promise<RedisServer>
  /** The masters now, each with the slot ranges it serves. */
  masters(): Promise<Array<{ node: RedisServer; slots: Array<[number, number]> }>>
  /** Resolves once every slot is served by a master that answers (after a failover: the replica promoted). */
  settled(): Promise<void>
  /**
   * Moves every key of `slot` to master `to` in one MIGRATE, sent in the same round trip as the
   * source's SETSLOT MIGRATING, so no client sees the slot's keys split: from then on the source
   * answers ASK. Resolves with the keys moved and `assign`, which gives the slot to `to` on every
   * master (the source then answers MOVED).
   */
  moveSlot(slot: number, to: RedisServer): Promise<{ keys: number; assign(): Promise<void> }>
  /** Stops every node and removes their directories. */
  remove(): Promise<void>
}

/**
 * A real Redis Cluster of the test's own: `masters` masters with `replicasPerMaster` replicas each, on
 * free loopback ports, each node in a throwaway directory, made by `redis-cli --cluster create`.
 */
export async function startRedisCluster({ masters = 3, replicasPerMaster = 1 } = {}): Promise<RedisCluster> {
  const nodes: RedisServer[] = []
  try {
    for (let i = 0; i < masters * (1 + replicasPerMaster); i++)
      nodes.push(await startRedis({ cluster: true, clusterNodeTimeoutMs: CLUSTER_NODE_TIMEOUT_MS }))
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`)
    await run(
      REDIS_CLI,
      ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'],
      { timeout: 60_000 },
    )
    // Ready once every node sees every slot served, each by a master with its replicas in sync
    // (a replica still joining could not be elected).
    const deadline = Date.now() + 60_000
    while (!(await Promise.all(nodes.map((node) => inStep(node, replicasPerMaster)))).every(Boolean)) {
      if (Date.now() > deadline) throw new Error('the cluster did not settle within 60 s')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  } catch (error) {
    await Promise.all(nodes.map((node) => node.remove()))
    throw error
  }

  const shards = async () => {
    for (const node of nodes) {
      const client = new Redis(node.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        connectTimeout: 1_000,
      })
      client.on('error', () => undefined)
      try {
        await client.connect()
        const slots = (await client.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number], ...unknown[]]>
        return slots.map(([from, to, [, port]]) => ({
          from,
          to,
          node: nodes.find((candidate) => candidate.port === port)!,
        }))
      } catch {
        // A node stopped: ask the next.
      } finally {
        client.disconnect()
      }
    }
    throw new Error('no node of the cluster answers')
  }
  const answers = async (node: RedisServer) => {
    const client = new Redis(node.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 1_000,
    })
    client.on('error', () => undefined)
    try {
      await client.connect()
      return /cluster_state:ok/.test((await client.call('CLUSTER', 'INFO')) as string)
    } catch {
      return false
    } finally {
      client.disconnect()
    }
  }

  return {
    nodes,
    async masterOf(slot) {
      return (await shards()).find(({ from, to }) => from <= slot && slot <= to)!.node
    },
    async masters() {
      const found = new Map<RedisServer, Array<[number, number]>>()
      for (const { from, to, node } of await shards()) found.set(node, [...(found.get(node) ?? []), [from, to]])
      return [...found].map(([node, slots]) => ({ node, slots }))
    },
    async settled() {
      for (;;) {
        const served = await shards().catch(() => [])
        const covered = served.reduce((sum, { from, to }) => sum + to - from + 1, 0) === 16_384
        if (covered && (await Promise.all([...new Set(served.map(({ node }) => node))].map(answers))).every(Boolean))
          return
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
    async moveSlot(slot, to) {
      const masters = (await shards()).map(({ node }) => node)
      const from = (await shards()).find((shard) => shard.from <= slot && slot <= shard.to)!.node
      const clients = new Map([...new Set([...masters, to])].map((node) => [node, new Redis(node.url)]))
      const [source, target] = [clients.get(from)!, clients.get(to)!]
      let count = 0
      try {
        const [sourceId, targetId] = await Promise.all([source.call('CLUSTER', 'MYID'), target.call('CLUSTER', 'MYID')])
        await target.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', sourceId as string)
        const keys = (await source.call('CLUSTER', 'GETKEYSINSLOT', slot, 1_000_000)) as string[]
        const moved = await source
          .pipeline()
          .call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', targetId as string)
          .call('MIGRATE', '127.0.0.1', to.port, '', 0, 10_000, 'KEYS', ...keys)
          .exec()
        for (const [error] of moved ?? []) if (error) throw error
        count = keys.length
        // A key made between the listing and the move (none in the tests' traffic) follows alone.
        for (const left of (await source.call('CLUSTER', 'GETKEYSINSLOT', slot, 1_000_000)) as string[])
          await source.call('MIGRATE', '127.0.0.1', to.port, left, 0, 10_000)
      } finally {
        for (const client of clients.values()) client.disconnect()
      }
      return {
        keys: count,
        async assign() {
          const again = new Map([...clients.keys()].map((node) => [node, new Redis(node.url)]))
          try {
            const targetId = (await again.get(to)!.call('CLUSTER', 'MYID')) as string
            // The target first, then the source, as redis-cli does.
            for (const node of [to, from, ...[...again.keys()].filter((node) => node !== to && node !== from)])
              await again.get(node)!.call('CLUSTER', 'SETSLOT', slot, 'NODE', targetId)
          } finally {
            for (const client of again.values()) client.disconnect()
          }
        },
      }
    },
    async remove() {
      await Promise.all(nodes.map((node) => node.remove()))
    },
  }
}

/** Whether `node` sees the cluster whole: state ok, every range served by a master and `replicas` replicas, and, as a replica, in sync. */
async function inStep(node: RedisServer, replicas: number): Promise<boolean> {
  const client = new Redis(node.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1_000,
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
    if (!/cluster_state:ok/.test((await client.call('CLUSTER', 'INFO')) as string)) return false
    const slots = (await client.call('CLUSTER', 'SLOTS')) as unknown[][]
    if (slots.some((range) => range.length - 2 < 1 + replicas)) return false
    const replication = await client.info('replication')
    return !/role:slave/.test(replication) || /master_link_status:up/.test(replication)
  } catch {
    return false
  } finally {
    client.disconnect()
  }
}
