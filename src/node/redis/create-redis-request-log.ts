import { randomUUID } from 'node:crypto'
import { Cluster } from 'ioredis'
import type { InSession, RequestLogEntry } from '../../core/request-log/create-request-log.js'
import type { SharedRequestLog } from '../../core/state/shared-state.js'
import type { RedisGroupKeys, RedisKeys } from './redis-keys.js'
import type { RedisClient, RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

// Entries wait this long to travel together: the log costs a command per batch, not per request
// (BENCHMARKS.md, the Redis rows).
const FLUSH_AFTER_MS = 20

export interface RedisRequestLogOptions {
  scripts: RedisScripts
  client: RedisClient
  keys: RedisKeys
  capacity: number
  /** The generation of a session (undefined: the default) this process last saw in force: an entry answered before its session's reset is not kept. */
  generation: (session: string | undefined) => string
}

/**
 * The request log shared by every process and session: a Redis list per session, newest first,
 * the group's last `capacity` entries over them all (REQUEST_LOG in redis-keys.ts); a session's
 * reset or drop unlinks its list, in the script that does it, and a count is the list's length
 * (docs/decisions.md#d34). Each batch written is also
 * published on the prefix's channel, for the live logs of the other processes (docs/running-for-a-team.md#several-replicas-one-redis).
 * Recording never waits and never fails a request; an entry lost while Redis is away is only a
 * log line.
 */
export function createRedisRequestLog({
  scripts,
  client,
  keys,
  capacity,
  generation,
}: RedisRequestLogOptions): SharedRequestLog & { close(): void } {
  // Names this process's batches on the channel, so it does not hear its own entries twice.
  const sender = randomUUID()
  const watchers = new Set<(entry: RequestLogEntry) => void>()
  let subscriber: RedisClient | undefined
  let closed = false
  // Each entry as the script takes it: its session, that session's generation, its JSON.
  let pending: string[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    const batch = pending
    pending = []
    // One script per group of sessions, each in its group's slot (docs/decisions.md#d44).
    const byGroup = new Map<RedisGroupKeys, string[]>()
    for (let index = 0; index < batch.length; index += 3) {
      const group = keys.of(batch[index] || 'default')
      byGroup.set(group, [...(byGroup.get(group) ?? []), ...batch.slice(index, index + 3)])
    }
    for (const [group, entries] of byGroup)
      scripts.logRequests(group.meta, group.prefix, capacity, group.requests, sender, ...entries).catch(() => undefined)
  }
  // The list of a session's entries (`session` undefined: the default's).
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
        // One watcher's failure must not keep the others, or the connection, from the next entries.
        try {
          watcher(entry)
        } catch {}
      }
    }
  }

  // A connection of its own, opened for the first watcher and closed after the last: a connection
  // that subscribes can send nothing else, and a process nobody watches subscribes to nothing.
  const subscribe = () => {
    // Waits for Redis, however long it is away, rather than failing: ioredis subscribes again
    // by itself after a reconnect.
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
  // Closed at once rather than quit: a subscriber has nothing to finish, and a QUIT queued while
  // Redis is away would keep it reconnecting, and the process alive, after a shutdown.
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
      // Each line is `<sequence> <JSON>`.
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
      // Sent before the connection quits, so the last entries are not lost on a clean shutdown.
      if (pending.length > 0) flush()
      closed = true
      watchers.clear()
      unsubscribe()
    },
  }
}
