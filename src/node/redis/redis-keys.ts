import type { SessionName } from '../../core/state/shared-state.js'

/** The prefix of a shared sandbox's Redis keys, so several sandboxes can share one Redis. */
export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'

/** Names the key layout, so a process refuses a state written in another rather than misread it (D21). */
export const REDIS_LAYOUT = '4'

/**
 * The names the request log of a group is kept under, which the scripts build from the same
 * constants (redis-scripts.ts): each session's list of entries (`P s:<name>:<list>`), the sorted
 * set of the sessions by their oldest kept entry (`P <oldest>`), the hash of how many entries each
 * session's list holds (`P <counts>`), and two fields of `P meta`: how many entries the group
 * keeps (`kept`) and the last entry's sequence number (`sequence`). An entry is `<sequence> <JSON>`:
 * a drop or a count touches one session's list, never the others'.
 */
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
    /**
     * Hash of what the whole sandbox shares, read from Node only: layout, keys and kv (runtime
     * keys and their version); on a standalone Redis also the one group's fields (groupKeys).
     */
    meta: `${prefix}meta`,
    /** Counter of the base's generations: each seeding fills a new one. */
    generations: `${prefix}generations`,
    /** Held by the process seeding, so the others wait rather than seed too. */
    seeding: `${prefix}seeding`,
    /** Every group, in the order of their slots. */
    groups,
    /** The group session `name` lives in ('default' for the default session). */
    of: (name: string): RedisGroupKeys => groups[groups.length === 1 ? 0 : crc16(name) % groups.length]!,
  }
}

/**
 * The keys of one group of sessions under group prefix `p` (the scripts build the same names from
 * the prefix they are given: redis-scripts.ts says the fields).
 */
function groupKeys(p: string, db: number) {
  return {
    prefix: p,
    /**
     * Hash of the group: layout, seed, pets, given (the given pets' digest), base (the base's
     * generation), lastId and count (the base's), added (pets added by the group's sessions, for
     * maxPets), doffset (the default session's clock offset, in a group without it), and the
     * request log's count and sequence (REQUEST_LOG).
     */
    meta: `${p}meta`,
    /** List of session `name`'s kept requests, newest first, each `<sequence> <entry JSON>` (REQUEST_LOG). */
    sessionLog: (name: string) => `${p}s:${name}:${REQUEST_LOG.list}`,
    /** Sorted set of the sessions with kept requests, by their oldest's sequence: the next to go. */
    logOldest: `${p}${REQUEST_LOG.oldest}`,
    /** Hash of each session's count of kept requests, kept past the list's TTL so the count stays exact. */
    logCounts: `${p}${REQUEST_LOG.counts}`,
    /**
     * Pub/sub channel of the answered requests, as each process sends them: the live logs. It
     * names the database, since channels are one namespace across a server's databases: two
     * sandboxes on `/1` and `/2` with one prefix would hear each other's requests. A channel under
     * a hash tag (`{`) is sharded: SPUBLISH, SSUBSCRIBE.
     */
    requests: `${p}requests:db${db}`,
    /** Whether `requests` is a sharded channel. */
    sharded: p.startsWith('{'),
    /** Sorted set of the group's named sessions by last use, on the default session's clock. */
    sessions: `${p}sessions`,
    /** Counter of the group's world generations and versions. */
    worlds: `${p}worlds`,
    /** Hash of the pets each session holds beyond the base. */
    added: `${p}added`,
    /** A session's meta hash (redis-scripts.ts says its fields). */
    session: (name: SessionName) => `${p}s:${name}`,
    basePets: (gen: string) => `${p}base:${gen}:pets`,
    baseIds: (gen: string, status?: string) => `${p}base:${gen}:ids${status === undefined ? '' : `:${status}`}`,
    /** The start-up key buckets (a `--from` capsule's), copied into each session made. */
    baseQuotas: (gen: string) => `${p}base:${gen}:q`,
    /** A session's keys of one generation (`<gen>`) or of its origin (`o<gen>`). */
    world: (name: SessionName, gen: string, part: string) => `${p}s:${name}:${gen}:${part}`,
  }
}

/**
 * The prefix of group `index` of CLUSTER_GROUPS on a cluster: a hash tag whose slot lies in the
 * group's share of the slots, so that the groups spread evenly over masters holding even ranges.
 */
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
