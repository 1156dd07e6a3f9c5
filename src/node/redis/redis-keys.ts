/** The prefix of a shared sandbox's Redis keys, so several sandboxes can share one Redis. */
export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'

/**
 * The names of a shared sandbox's keys, all under its prefix (`--redis-prefix`), in the database
 * `db` the Redis URL selects (`redis://host:6379/2`).
 */
export function redisKeys(prefix: string, db = 0) {
  return {
    prefix,
    /** Hash: gen, seed, pets, given (the given pets' digest), nextId, offset (the clock's), faults and fv (their version). */
    meta: `${prefix}meta`,
    /** Counter of generations: each seeding or reset fills a new one. */
    generations: `${prefix}generations`,
    /** Held by the one process seeding, so the others wait rather than seed too. */
    seeding: `${prefix}seeding`,
    /** List of the last answered requests, newest first. */
    log: `${prefix}log`,
    /**
     * Pub/sub channel of the answered requests, as each process sends them: the live logs. It
     * names the database, since channels are one namespace across a server's databases: two
     * sandboxes on `/1` and `/2` with one prefix would hear each other's requests.
     */
    requests: `${prefix}requests:db${db}`,
    pets: (gen: string) => `${prefix}pets:${gen}`,
    ids: (gen: string, status?: string) => `${prefix}ids:${gen}${status === undefined ? '' : `:${status}`}`,
  }
}

export type RedisKeys = ReturnType<typeof redisKeys>
