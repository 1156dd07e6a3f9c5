/** The prefix of a shared sandbox's Redis keys, so several sandboxes can share one Redis. */
export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'

/**
 * The layout of the keys below, written in the meta hash (`layout`): a process refuses a state
 * written in another one, in one line, rather than misread it (docs/decisions.md#d21).
 */
export const REDIS_LAYOUT = '3'

/**
 * The names of a shared sandbox's keys, all under its prefix (`--redis-prefix`). The start-up pets
 * (the base) are written once and never changed; each session's world lives in keys of its own
 * over them, copy-on-write (docs/decisions.md#d34). The scripts build the same names
 * (redis-scripts.ts). `db` is the database the Redis URL selects (`redis://host:6379/2`).
 */
export function redisKeys(prefix: string, db = 0) {
  return {
    prefix,
    /**
     * Hash of what every session shares: layout, seed, pets, given (the given pets' digest),
     * base (the base's generation), lastId and count (the base's), added (pets added by every
     * session, for maxPets), keys and kv (runtime keys and their version).
     */
    meta: `${prefix}meta`,
    /** Counter of the base's generations: each seeding fills a new one. */
    generations: `${prefix}generations`,
    /** Held by the one process seeding, so the others wait rather than seed too. */
    seeding: `${prefix}seeding`,
    /** List of the last answered requests of every session, newest first, each `<session>|<entry JSON>` (`''` for the default). */
    log: `${prefix}log`,
    /**
     * Pub/sub channel of the answered requests, as each process sends them: the live logs. It
     * names the database, since channels are one namespace across a server's databases: two
     * sandboxes on `/1` and `/2` with one prefix would hear each other's requests.
     */
    requests: `${prefix}requests:db${db}`,
    /** Sorted set of the named sessions by last use, on the default session's clock. */
    sessions: `${prefix}sessions`,
    /** A session's meta hash (redis-scripts.ts says its fields). */
    session: (name: string) => `${prefix}s:${name}`,
    basePets: (gen: string) => `${prefix}base:${gen}:pets`,
    baseIds: (gen: string, status?: string) => `${prefix}base:${gen}:ids${status === undefined ? '' : `:${status}`}`,
    /** The start-up key buckets (a `--from` capsule's), copied into each session made. */
    baseQuotas: (gen: string) => `${prefix}base:${gen}:q`,
    /** A session's keys of one generation (`<gen>`) or of its origin (`o<gen>`): `pets`, `ids`, `ids:<status>`, `replaced`, `q`. */
    world: (name: string, gen: string, part: string) => `${prefix}s:${name}:${gen}:${part}`,
  }
}

export type RedisKeys = ReturnType<typeof redisKeys>
