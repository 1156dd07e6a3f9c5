import type { SessionName } from '../../core/state/shared-state.js'

/** The prefix of a shared sandbox's Redis keys, so several sandboxes can share one Redis. */
export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'

/** Names the key layout, so a process refuses a state written in another rather than misread it (D21). */
export const REDIS_LAYOUT = '4'

/** Names the request log's keys and `P meta` fields, for Node and the scripts alike (redis-scripts.ts). */
export const REQUEST_LOG = {
  list: 'log',
  oldest: 'logs',
  counts: 'logcounts',
  kept: 'logged',
  sequence: 'lseq',
} as const

/** How many groups of sessions a Redis Cluster holds, each in a slot of its own (docs/decisions.md#d44). */
export const CLUSTER_GROUPS = 16

const SLOTS = 16_384

/** Names a shared sandbox's keys under its prefix, sessions spread over groups of one hash tag each (D44). */
export function redisKeys(prefix: string, { db = 0, cluster = false }: { db?: number; cluster?: boolean } = {}) {
  const groups = cluster
    ? Array.from({ length: CLUSTER_GROUPS }, (_, index) => groupKeys(groupPrefix(prefix, index), db))
    : [groupKeys(prefix, db)]
  return {
    prefix,
    /** Hash of the sandbox: layout, keys and kv (runtime keys); on a standalone Redis the group's too. */
    meta: `${prefix}meta`,
    generations: `${prefix}generations`,
    /** Held by the process seeding, so the others wait. */
    seeding: `${prefix}seeding`,
    groups,
    of: (name: string): RedisGroupKeys => groups[groups.length === 1 ? 0 : crc16(name) % groups.length]!,
  }
}

/** Names one group's keys under prefix `p`, as the scripts do (redis-scripts.ts says the fields). */
function groupKeys(p: string, db: number) {
  return {
    prefix: p,
    meta: `${p}meta`,
    /** List of session `name`'s kept requests, newest first, each `<sequence> <entry JSON>`. */
    sessionLog: (name: string) => `${p}s:${name}:${REQUEST_LOG.list}`,
    /** Sorted set of the sessions with kept requests, by their oldest's sequence: the next to go. */
    logOldest: `${p}${REQUEST_LOG.oldest}`,
    /** Hash of each session's count of kept requests, outliving the list's TTL so the count stays exact. */
    logCounts: `${p}${REQUEST_LOG.counts}`,
    /** Channel of the answered requests; it names the database, as channels span a server's databases. */
    requests: `${p}requests:db${db}`,
    /** Whether `requests` is a sharded channel (SPUBLISH, SSUBSCRIBE). */
    sharded: p.startsWith('{'),
    sessions: `${p}sessions`,
    worlds: `${p}worlds`,
    added: `${p}added`,
    session: (name: SessionName) => `${p}s:${name}`,
    basePets: (gen: string) => `${p}base:${gen}:pets`,
    baseIds: (gen: string, status?: string) => `${p}base:${gen}:ids${status === undefined ? '' : `:${status}`}`,
    baseQuotas: (gen: string) => `${p}base:${gen}:q`,
    /** A session's keys of one generation (`<gen>`) or of its origin (`o<gen>`). */
    world: (name: SessionName, gen: string, part: string) => `${p}s:${name}:${gen}:${part}`,
  }
}

/** Returns group `index`'s hash tag, its slot in the group's share so groups spread evenly over masters. */
function groupPrefix(prefix: string, index: number): string {
  const from = Math.floor((index * SLOTS) / CLUSTER_GROUPS)
  const to = Math.floor(((index + 1) * SLOTS) / CLUSTER_GROUPS)
  for (let attempt = 0; ; attempt++) {
    const tag = `${prefix}g${index}.${attempt}`
    const slot = crc16(tag) % SLOTS
    if (slot >= from && slot < to) return `{${tag}}:`
  }
}

/** The slot of a key as Redis Cluster computes it (CRC16-XMODEM of its hash tag, else of the whole key). */
export function slotOf(key: string): number {
  const open = key.indexOf('{')
  const close = open < 0 ? -1 : key.indexOf('}', open + 1)
  return crc16(close > open + 1 ? key.slice(open + 1, close) : key) % SLOTS
}

function crc16(text: string): number {
  let crc = 0
  for (const byte of Buffer.from(text)) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

export type RedisKeys = ReturnType<typeof redisKeys>
export type RedisGroupKeys = ReturnType<typeof groupKeys>
