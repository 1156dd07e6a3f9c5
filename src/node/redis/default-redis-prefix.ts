/** The prefix of a shared sandbox's Redis keys, so several sandboxes can share one Redis. */
export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'
