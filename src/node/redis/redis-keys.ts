import type { SessionName } from '../../core/state/shared-state.js'

export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'

/** Names the key layout; a state in another is refused (D21). */
export const REDIS_LAYOUT = '4'

/** Names the request log's keys and `P meta` fields, for Node and the scripts. */
export const REQUEST_LOG = {
  list: 'log',
  oldest: 'logs',
  counts: 'logcounts',
  kept: 'logged',
  sequence: 'lseq',
} as const

/** Counts a Redis Cluster's groups of sessions, a slot each (D44). */
export const CLUSTER_GROUPS = 16

const SLOTS = 16_384

/** Names a shared sandbox's keys under its prefix (D44). */
export function redisKeys(prefix: string, { db = 0, cluster = false }: { db?: number; cluster?: boolean } = {}) {
  const groups = cluster
    ? Array.from({ length: CLUSTER_GROUPS }, (_, index) => groupKeys(groupPrefix(prefix, index), db))
    : [groupKeys(prefix, db)]
  return {
    prefix,
    /** Hash of layout, keys and kv (runtime keys); on a standalone Redis the group's too. */
    meta: `${prefix}meta`,
    generations: `${prefix}generations`,
    /** Held by the process seeding, so the others wait. */
    seeding: `${prefix}seeding`,
    groups,
    of: (name: string): RedisGroupKeys => groups[groups.length === 1 ? 0 : crc16(name) % groups.length]!,
  }
}

/** Names one group's keys under prefix `p`, as redis-scripts.ts does. */
function groupKeys(p: string, db: number) {
  return {
    prefix: p,
    meta: `${p}meta`,
    sessionLog: (name: string) => `${p}s:${name}:${REQUEST_LOG.list}`,
    logOldest: `${p}${REQUEST_LOG.oldest}`,
    /** Outlives the lists' TTL, so the count stays exact. */
    logCounts: `${p}${REQUEST_LOG.counts}`,
    /** Names the database, as channels span a server's databases. */
    requests: `${p}requests:db${db}`,
    sharded: p.startsWith('{'),
    sessions: `${p}sessions`,
    worlds: `${p}worlds`,
    added: `${p}added`,
    session: (name: SessionName) => `${p}s:${name}`,
    basePets: (gen: string) => `${p}base:${gen}:pets`,
    baseIds: (gen: string, status?: string) => `${p}base:${gen}:ids${status === undefined ? '' : `:${status}`}`,
    baseQuotas: (gen: string) => `${p}base:${gen}:q`,
    world: (name: SessionName, gen: string, part: string) => `${p}s:${name}:${gen}:${part}`,
  }
}

/** Returns group `index`'s hash tag, in its share of the slots so groups spread evenly. */
function groupPrefix(prefix: string, index: number): string {
  const from = Math.floor((index * SLOTS) / CLUSTER_GROUPS)
  const to = Math.floor(((index + 1) * SLOTS) / CLUSTER_GROUPS)
  for (let attempt = 0; ; attempt++) {
    const tag = `${prefix}g${index}.${attempt}`
    const slot = crc16(tag) % SLOTS
    if (slot >= from && slot < to) return `{${tag}}:`
  }
}

/** Returns a key's Redis Cluster slot. */
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
