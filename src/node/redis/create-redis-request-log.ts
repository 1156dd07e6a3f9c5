import type { Redis } from 'ioredis'
import type { RequestLogEntry } from '../../core/request-log/create-request-log.js'
import type { RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

// Entries wait this long to travel together: the log costs a command per batch, not per request
// (BENCHMARKS.md, the Redis rows).
const FLUSH_AFTER_MS = 20

/**
 * The request log shared by every process: a capped Redis list, newest first. Recording never
 * waits and never fails a request; an entry lost while Redis is away is only a log line.
 */
export function createRedisRequestLog({ scripts, client, key, capacity }: { scripts: RedisScripts; client: Redis; key: string; capacity: number }) {
  let pending: string[] = []
  const flush = () => {
    const batch = pending
    pending = []
    scripts.logRequests(key, capacity, ...batch).catch(() => undefined)
  }
  return {
    record(entry: RequestLogEntry): void {
      if (capacity === 0) return
      if (pending.length === 0) setTimeout(flush, FLUSH_AFTER_MS).unref()
      pending.push(JSON.stringify(entry))
    },
    async last(limit = capacity): Promise<RequestLogEntry[]> {
      if (limit <= 0 || capacity === 0) return []
      const newest = await client.lrange(key, 0, Math.min(limit, capacity) - 1).catch(redisUnavailable)
      return newest.reverse().map((json) => JSON.parse(json) as RequestLogEntry)
    },
  }
}
