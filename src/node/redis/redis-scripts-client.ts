import type { Cluster, Redis } from 'ioredis'
import { REDIS_SCRIPTS } from './redis-scripts.js'

/** A connection to a standalone Redis, or to a Redis Cluster (docs/decisions.md#d44). */
export type RedisClient = Redis | Cluster

type ScriptReply = unknown
type Script = (meta: string, ...args: Array<string | number>) => Promise<ScriptReply>

/**
 * The scripts, callable by name: ioredis sends EVALSHA, and EVAL when Redis lost its script cache
 * (on a cluster, per node: the node of the script's key, KEYS[1], whose slot holds every key it touches).
 */
export type RedisScripts = Record<keyof typeof REDIS_SCRIPTS, Script>

export function redisScriptsClient(client: RedisClient): RedisScripts {
  for (const [name, lua] of Object.entries(REDIS_SCRIPTS)) client.defineCommand(name, { lua, numberOfKeys: 1 })
  return client as unknown as RedisScripts
}
