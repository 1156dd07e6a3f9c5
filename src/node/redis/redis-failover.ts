import { setTimeout as sleep } from 'node:timers/promises'
import { Cluster } from 'ioredis'
import type { RedisClient } from './redis-scripts-client.js'

/**
 * How long past its cluster-node-timeout a Redis Cluster may take to fail a master over (the
 * replica's election): the bound of a call's wait is the two together (docs/decisions.md#d44).
 */
export const FAILOVER_MARGIN_MS = 5_000

/** Redis's own cluster-node-timeout, taken when a node does not tell its own (CONFIG refused). */
export const DEFAULT_CLUSTER_NODE_TIMEOUT_MS = 15_000

/** How often a call is tried again while its slot has no master that answers. */
export const FAILOVER_RETRY_MS = 100

/** How long a call waits for a failover, in ms, on a cluster whose cluster-node-timeout is `nodeTimeoutMs`. */
export const failoverBoundMs = (nodeTimeoutMs: number) => nodeTimeoutMs + FAILOVER_MARGIN_MS

/**
 * Whether `error` says the call is to be sent again: its slot had no master that answered, was
 * moving or moved, or its connection closed (ioredis takes that one as not run, as it does itself).
 */
const again = (message: string) =>
  /^(CLUSTERDOWN|TRYAGAIN|MOVED|ASK) /.test(message) ||
  message === 'Connection is closed.' ||
  message.startsWith("Cluster isn't ready")

/**
 * How the calls of a world ride out a master's failover on a Redis Cluster (docs/decisions.md#d44):
 * a call whose slot has no master that answers is tried again every FAILOVER_RETRY_MS for at most
 * `boundMs` from its first try; then its error goes on (a 503). ioredis does so itself for a
 * command, within its command time (the same bound), but not for a pipeline whose commands failed
 * apart (a script and its WAIT): this covers those. On a standalone Redis (`boundMs` 0) nothing
 * is tried again: Redis away is answered 503 at once.
 */
export function createRedisFailover({
  client,
  boundMs,
  now = () => performance.now(),
}: {
  client: RedisClient
  boundMs: number
  now?: () => number
}) {
  return {
    boundMs,
    now,
    /** Whether `error` says its call is to be sent again. */
    again: (error: unknown) => again((error as Error).message ?? ''),
    /** Runs `call`, again while a failover allows, and answers its reply or its last error. */
    async ride<T>(call: () => Promise<T>): Promise<T> {
      const started = now()
      for (;;) {
        try {
          return await call()
        } catch (error) {
          const { message = '' } = error as Error
          if (!again(message) || now() - started + FAILOVER_RETRY_MS > boundMs) throw error
          // A pipeline redirected is not followed by ioredis: the map is asked for again.
          if (client instanceof Cluster && /^(MOVED|ASK) /.test(message)) client.refreshSlotsCache()
          await sleep(FAILOVER_RETRY_MS)
        }
      }
    },
  }
}

export type RedisFailover = ReturnType<typeof createRedisFailover>
