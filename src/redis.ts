// Exports the Node-only `petstore-sandbox/redis` (docs/running-for-a-team.md#several-replicas-one-redis).
export { connectRedisState, DEFAULT_REDIS_PREFIX, type RedisStateOptions } from './node/redis/connect-redis-state.js'
