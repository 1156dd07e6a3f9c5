import { randomUUID } from 'node:crypto'
import { Cluster } from 'ioredis'
import type { InSession, RequestLogEntry } from '../../core/request-log/create-request-log.js'
import type { SharedRequestLog } from '../../core/state/shared-state.js'
import type { RedisGroupKeys, RedisKeys } from './redis-keys.js'
import type { RedisClient, RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

// A command per batch, not per request (BENCHMARKS.md, Redis).
const FLUSH_AFTER_MS = 20

export interface RedisRequestLogOptions {
  scripts: RedisScripts
  client: RedisClient
  keys: RedisKeys
  capacity: number
  /** Returns the session's generation last seen: an entry from before a reset is not kept. */
  generation: (session: string | undefined) => string
}

/** Creates the request log shared on Redis, batches published to the other processes (D34). */
export function createRedisRequestLog({
  scripts,
  client,
  keys,
  capacity,
  generation,
}: RedisRequestLogOptions): SharedRequestLog & { close(): void } {
  // So this process does not hear its own entries twice.
  const sender = randomUUID()
  const watchers = new Set<(entry: RequestLogEntry) => void>()
  let subscriber: RedisClient | undefined
  let closed = false
  let pending: string[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    const batch = pending
    pending = []
    // One script per group, in its slot (D44).
    const byGroup = new Map<RedisGroupKeys, string[]>()
    for (let index = 0; index < batch.length; index += 3) {
      const group = keys.of(batch[index] || 'default')
      const entries = byGroup.get(group) ?? []
      if (entries.length === 0) byGroup.set(group, entries)
      entries.push(batch[index]!, batch[index + 1]!, batch[index + 2]!)
    }
    for (const [group, entries] of byGroup)
      scripts.logRequests(group.meta, group.prefix, capacity, group.requests, sender, ...entries).catch(() => undefined)
  }
  const listOf = ({ session = 'default' }: InSession) => keys.of(session).sessionLog(session)

  const hear = (_channel: string, message: string) => {
    const space = message.indexOf(' ')
    if (message.slice(0, space) === sender) return
    let entries: RequestLogEntry[]
    try {
      entries = JSON.parse(message.slice(space + 1)) as RequestLogEntry[]
    } catch {
      return
    }
    for (const entry of entries) {
      for (const watcher of watchers) {
        // One watcher's failure must not stop the others.
        try {
          watcher(entry)
        } catch {}
      }
    }
  }

  const subscribe = () => {
    // Waits however long Redis is away; ioredis subscribes again after a reconnect.
    const waiting = { enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined }
    const connection: RedisClient =
      client instanceof Cluster
        ? client.duplicate(undefined, {
            shardedSubscribers: true,
            enableOfflineQueue: true,
            redisOptions: { ...client.options.redisOptions, ...waiting },
          })
        : client.duplicate({ lazyConnect: false, ...waiting })
    connection.on('error', () => undefined)
    connection.on('message', hear)
    connection.on('smessage', hear)
    for (const group of keys.groups)
      (group.sharded ? connection.ssubscribe(group.requests) : connection.subscribe(group.requests)).catch(
        () => undefined,
      )
    return connection
  }
  // A QUIT queued while Redis is away would keep the process alive.
  const unsubscribe = () => {
    subscriber?.disconnect()
    subscriber = undefined
  }

  return {
    record(entry: RequestLogEntry): void {
      if (pending.length === 0) {
        timer = setTimeout(flush, FLUSH_AFTER_MS)
        timer.unref()
      }
      pending.push(entry.session ?? '', generation(entry.session), JSON.stringify(entry))
    },
    async last(limit = capacity, of): Promise<RequestLogEntry[]> {
      if (limit <= 0 || capacity === 0) return []
      const newest = await client.lrange(listOf(of), 0, Math.min(limit, capacity) - 1).catch(redisUnavailable)
      return newest.reverse().map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)) as RequestLogEntry)
    },
    count: async (of) =>
      capacity === 0 ? 0 : Math.min(capacity, await client.llen(listOf(of)).catch(redisUnavailable)),
    watchOthers(listener) {
      const watcher = (entry: RequestLogEntry) => listener(entry)
      watchers.add(watcher)
      if (subscriber === undefined && !closed) subscriber = subscribe()
      return () => {
        if (watchers.delete(watcher) && watchers.size === 0) unsubscribe()
      }
    },
    close() {
      // Before the connection quits, so a clean shutdown loses no entries.
      if (pending.length > 0) flush()
      closed = true
      watchers.clear()
      unsubscribe()
    },
  }
}
