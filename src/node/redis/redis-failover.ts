import { setTimeout as sleep } from 'node:timers/promises'
import { Cluster } from 'ioredis'
import type { RedisClient } from './redis-scripts-client.js'

/** Bounds a failover past cluster-node-timeout (D44). */
export const FAILOVER_MARGIN_MS = 5_000

/** Redis's default cluster-node-timeout, for a node that refuses CONFIG. */
export const DEFAULT_CLUSTER_NODE_TIMEOUT_MS = 15_000

export const FAILOVER_RETRY_MS = 100

export const failoverBoundMs = (nodeTimeoutMs: number) => nodeTimeoutMs + FAILOVER_MARGIN_MS

// What ioredis says of a master going away, before the cluster names its replica: a closed or reconnecting
// connection, a pipeline cut off, a command failed at once rather than queued (connect-redis-state.ts).
const again = (message: string) =>
  /^(CLUSTERDOWN|TRYAGAIN|MOVED|ASK) /.test(message) ||
  message === 'Connection is closed.' ||
  message === 'Command aborted due to connection close' ||
  message.startsWith("Stream isn't writeable") ||
  message.startsWith('Reached the max retries per request limit') ||
  message.startsWith("Cluster isn't ready")

/** Retries a call through a cluster failover for at most `boundMs`, as ioredis does not for pipelines (D44). */
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
    again: (error: unknown) => again((error as Error).message ?? ''),
    /** Runs `call`, again while within the bound. */
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
