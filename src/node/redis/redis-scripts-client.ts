import type { Redis } from 'ioredis'
import { REDIS_SCRIPTS } from './redis-scripts.js'

type ScriptReply = unknown
type Script = (meta: string, ...args: Array<string | number>) => Promise<ScriptReply>

/** The scripts, callable by name: ioredis sends EVALSHA, and EVAL when Redis lost its script cache. */
export type RedisScripts = Record<keyof typeof REDIS_SCRIPTS, Script>

export function redisScriptsClient(client: Redis): RedisScripts {
  for (const [name, lua] of Object.entries(REDIS_SCRIPTS)) client.defineCommand(name, { lua, numberOfKeys: 1 })
  return client as unknown as RedisScripts
}
