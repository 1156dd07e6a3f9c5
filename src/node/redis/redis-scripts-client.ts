import type { Cluster, Redis } from 'ioredis'
import { REDIS_SCRIPTS } from './redis-scripts.js'

export type RedisClient = Redis | Cluster

type ScriptReply = unknown
type Script = (meta: string, ...args: Array<string | number>) => Promise<ScriptReply>

/** The scripts by name; ioredis sends EVALSHA, EVAL when a node lost its cache. */
export type RedisScripts = Record<keyof typeof REDIS_SCRIPTS, Script>

export function redisScriptsClient(client: RedisClient): RedisScripts {
  for (const [name, lua] of Object.entries(REDIS_SCRIPTS)) client.defineCommand(name, { lua, numberOfKeys: 1 })
  return client as unknown as RedisScripts
}
