// The Node-only entry `petstore-sandbox/redis`: state shared through Redis by several sandbox
// processes (docs/running-for-a-team.md#several-replicas-one-redis). Kept out of the main entry,
// which also serves browsers.
export { connectRedisState, DEFAULT_REDIS_PREFIX, type RedisStateOptions } from './node/redis/connect-redis-state.js'
