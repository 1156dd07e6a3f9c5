import { checkSessionName } from '../../core/sessions/session-name.js'
import type { BoundKey, BoundKeys } from '../../core/auth/create-bound-keys.js'
import type { ApiKey } from '../../core/auth/key-config.js'
import type { RedisKeys } from './redis-keys.js'
import type { RedisClient } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

// DECIDE checks it too (redis-scripts.ts).
const MARK = 'K:'

export interface RedisBoundKeys extends BoundKeys {
  /** Forgets `token`, which the state said is bound no more. */
  forget(token: string): void
}

/** Creates the bound keys on Redis (D46): in each session's meta, indexed by a hint. */
export function createRedisBoundKeys({ client, keys }: { client: RedisClient; keys: RedisKeys }): RedisBoundKeys {
  const index = `${keys.prefix}bound`
  const meta = (session: string) => keys.of(session).session(checkSessionName(session, 'a bound session'))
  const known = new Map<string, BoundKey>()
  let tokens: readonly string[] = []
  const changed = () => {
    tokens = [...known.keys()]
  }
  const keep = (bound: BoundKey) => {
    known.set(bound.key, bound)
    changed()
    return bound
  }
  const parse = (key: string, session: string, json: string): BoundKey => {
    const { plan, perMinute, perDay } = JSON.parse(json) as Omit<ApiKey, 'key'>
    return { key, plan, perMinute, perDay, session }
  }
  const inSession = async (key: string, session: string): Promise<BoundKey | undefined> => {
    const json = await client.hget(meta(session), MARK + key).catch(redisUnavailable)
    return json === null ? undefined : parse(key, session, json)
  }
  return {
    known: (token) => known.get(token),
    async ask(token) {
      const session = await client.hget(index, token).catch(redisUnavailable)
      if (session === null) return undefined
      const bound = await inSession(token, session)
      if (bound === undefined) {
        await client.hdel(index, token).catch(redisUnavailable)
        return undefined
      }
      return keep(bound)
    },
    async of(session) {
      const all = await client.hgetall(meta(session)).catch(redisUnavailable)
      const bound = Object.entries(all).flatMap(([field, json]) =>
        field.startsWith(MARK)
          ? [{ ...parse(field.slice(MARK.length), session, json), made: JSON.parse(json).made }]
          : [],
      )
      return bound.sort((a, b) => a.made - b.made).map(({ made: _made, ...key }) => key)
    },
    tokens: () => tokens,
    async boundElsewhere(session, wanted) {
      if (wanted.length === 0) return undefined
      const named = await client.hmget(index, ...wanted).catch(redisUnavailable)
      for (const [i, other] of named.entries()) {
        if (other === null || other === session) continue
        if ((await inSession(wanted[i]!, other)) !== undefined) return { key: wanted[i]!, session: other }
      }
      return undefined
    },
    async bind(session, bound) {
      const made = Date.now()
      const fields = bound.flatMap(({ key, plan, perMinute, perDay }, i) => [
        MARK + key,
        JSON.stringify({ plan, perMinute, perDay, made: made + i }),
      ])
      // The session's meta first: the index is only a hint of it.
      await client.hset(meta(session), ...fields).catch(redisUnavailable)
      await client.hset(index, ...bound.flatMap(({ key }) => [key, session])).catch(redisUnavailable)
      for (const apiKey of bound) keep({ ...apiKey, session })
    },
    release(session) {
      let any = false
      for (const [key, bound] of known) {
        if (bound.session !== session) continue
        known.delete(key)
        any = true
      }
      if (any) changed()
    },
    forget(token) {
      if (known.delete(token)) changed()
    },
  }
}
