import { lauxlib, lua, lualib, to_luastring } from 'fengari'

/** A value as a script sees a Redis reply, or as Redis answers a script's: a string, a number, nil, or a list of them. */
type Value = string | number | null | Value[]

/** A key's value in the fake Redis: a string, a hash, a list (head first) or a sorted set. */
type Entry =
  | { type: 'string'; value: string }
  | { type: 'hash'; fields: Map<string, string> }
  | { type: 'list'; items: string[] }
  | { type: 'zset'; scores: Map<string, number> }

/**
 * Runs Redis scripts in fengari (a Lua VM in JavaScript) over an in-memory stand-in of Redis, with
 * KEYS and ARGV as Redis gives them, `redis.call` answering as Redis converts its replies, and the
 * script's answer converted as Redis converts it for a client. It keeps strings, hashes, lists and
 * sorted sets, and knows the commands the rate-limit scripts call in the default session and
 * those of the request log and of making, listing, resetting and dropping sessions; any other
 * throws, naming it. Expiry is kept by no command: the test's clock is simulated.
 *
 * fengari is Lua 5.3 with 32-bit integers, Redis's Lua is 5.1, whose numbers are all doubles: a
 * number past 2^31 is a float here, exact below 2^53, so the scripts' arithmetic on epoch ms is the
 * same; the Redis tier runs the same scripts on redis-server (redis-rate-limit-equivalence).
 *
 * @example
 * const redis = createLuaRedis()
 * redis.call('HSET', 'meta', 'base', '1')
 * redis.run(REDIS_SCRIPTS.quota, ['meta'], ['p:', 'default', Date.now(), '', ...])
 */
export function createLuaRedis() {
  const data = new Map<string, Entry>()
  const L = lauxlib.luaL_newstate()
  lualib.luaL_openlibs(L)
  const compiled = new Map<string, number>()

  const hash = (key: string, create: boolean): Map<string, string> | undefined => {
    const entry = data.get(key)
    if (entry === undefined) {
      if (!create) return undefined
      const fields = new Map<string, string>()
      data.set(key, { type: 'hash', fields })
      return fields
    }
    if (entry.type !== 'hash') throw new Error(`WRONGTYPE ${key} holds a ${entry.type}`)
    return entry.fields
  }
  const list = (key: string, create: boolean): string[] | undefined => {
    const entry = data.get(key)
    if (entry === undefined) {
      if (!create) return undefined
      const items: string[] = []
      data.set(key, { type: 'list', items })
      return items
    }
    if (entry.type !== 'list') throw new Error(`WRONGTYPE ${key} holds a ${entry.type}`)
    return entry.items
  }
  const zset = (key: string, create: boolean): Map<string, number> | undefined => {
    const entry = data.get(key)
    if (entry === undefined) {
      if (!create) return undefined
      const scores = new Map<string, number>()
      data.set(key, { type: 'zset', scores })
      return scores
    }
    if (entry.type !== 'zset') throw new Error(`WRONGTYPE ${key} holds a ${entry.type}`)
    return entry.scores
  }
  // A list or a sorted set left empty is no key any more, as in Redis.
  const vacate = (key: string) => {
    const entry = data.get(key)
    if ((entry?.type === 'list' && entry.items.length === 0) || (entry?.type === 'zset' && entry.scores.size === 0))
      data.delete(key)
  }
  // The members of a sorted set in order (score, then member), with Redis's index range.
  const ranked = (key: string, start: number, stop: number): Array<[string, number]> => {
    const all = [...(zset(key, false) ?? new Map<string, number>())].sort(
      ([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0),
    )
    return slice(all, start, stop)
  }
  const slice = <T>(all: T[], start: number, stop: number): T[] => {
    const from = start < 0 ? Math.max(0, all.length + start) : start
    const to = stop < 0 ? all.length + stop : Math.min(stop, all.length - 1)
    return from > to ? [] : all.slice(from, to + 1)
  }
  const withScores = (members: Array<[string, number]>, scores: boolean): string[] =>
    scores ? members.flatMap(([member, score]) => [member, String(score)]) : members.map(([member]) => member)

  const COMMANDS: Record<string, (args: string[]) => Value> = {
    GET: ([key = '']) => {
      const entry = data.get(key)
      if (entry !== undefined && entry.type !== 'string') throw new Error(`WRONGTYPE ${key} holds a hash`)
      return entry?.value ?? null
    },
    SET: ([key = '', value = '']) => {
      data.set(key, { type: 'string', value })
      return 'OK'
    },
    INCR: ([key = '']) => {
      const next = Number(COMMANDS.GET?.([key]) ?? '0') + 1
      data.set(key, { type: 'string', value: String(next) })
      return next
    },
    HGET: ([key = '', field = '']) => hash(key, false)?.get(field) ?? null,
    HEXISTS: ([key = '', field = '']) => (hash(key, false)?.has(field) ? 1 : 0),
    HMGET: ([key = '', ...fields]) => fields.map((field) => hash(key, false)?.get(field) ?? null),
    HGETALL: ([key = '']) => [...(hash(key, false) ?? new Map<string, string>())].flat(),
    HSET: ([key = '', ...pairs]) => {
      const fields = hash(key, true) as Map<string, string>
      let added = 0
      for (let i = 0; i < pairs.length; i += 2) {
        if (!fields.has(pairs[i] as string)) added++
        fields.set(pairs[i] as string, pairs[i + 1] as string)
      }
      return added
    },
    HDEL: ([key = '', ...names]) => names.filter((name) => hash(key, false)?.delete(name)).length,
    HINCRBY: ([key = '', field = '', by = '0']) => {
      const fields = hash(key, true) as Map<string, string>
      const next = Number(fields.get(field) ?? '0') + Number(by)
      fields.set(field, String(next))
      return next
    },
    COPY: ([from = '', to = '']) => {
      const entry = data.get(from)
      if (entry === undefined) return 0
      data.set(
        to,
        entry.type === 'hash'
          ? { type: 'hash', fields: new Map(entry.fields) }
          : entry.type === 'list'
            ? { type: 'list', items: [...entry.items] }
            : entry.type === 'zset'
              ? { type: 'zset', scores: new Map(entry.scores) }
              : { ...entry },
      )
      return 1
    },
    PEXPIRE: ([key = '']) => (data.has(key) ? 1 : 0),
    // No key expires here: one that exists has no TTL.
    PTTL: ([key = '']) => (data.has(key) ? -1 : -2),
    EXISTS: (keys) => keys.filter((key) => data.has(key)).length,
    DEL: (keys) => keys.filter((key) => data.delete(key)).length,
    UNLINK: (keys) => keys.filter((key) => data.delete(key)).length,
    LPUSH: ([key = '', ...values]) => {
      const items = list(key, true) as string[]
      for (const value of values) items.unshift(value)
      return items.length
    },
    RPOP: ([key = '']) => {
      const popped = list(key, false)?.pop() ?? null
      vacate(key)
      return popped
    },
    LLEN: ([key = '']) => list(key, false)?.length ?? 0,
    LINDEX: ([key = '', index = '0']) => {
      const items = list(key, false) ?? []
      const at = Number(index) < 0 ? items.length + Number(index) : Number(index)
      return items[at] ?? null
    },
    LRANGE: ([key = '', start = '0', stop = '-1']) => slice(list(key, false) ?? [], Number(start), Number(stop)),
    ZADD: ([key = '', ...rest]) => {
      const nx = rest[0]?.toUpperCase() === 'NX'
      const pairs = nx ? rest.slice(1) : rest
      const scores = zset(key, true) as Map<string, number>
      let added = 0
      for (let i = 0; i < pairs.length; i += 2) {
        const member = pairs[i + 1] as string
        if (!scores.has(member)) added++
        else if (nx) continue
        scores.set(member, Number(pairs[i]))
      }
      return added
    },
    ZREM: ([key = '', ...members]) => {
      const removed = members.filter((member) => zset(key, false)?.delete(member)).length
      vacate(key)
      return removed
    },
    ZSCORE: ([key = '', member = '']) => {
      const score = zset(key, false)?.get(member)
      return score === undefined ? null : String(score)
    },
    ZCARD: ([key = '']) => zset(key, false)?.size ?? 0,
    ZRANGE: ([key = '', start = '0', stop = '-1', scores]) =>
      withScores(ranked(key, Number(start), Number(stop)), scores?.toUpperCase() === 'WITHSCORES'),
    ZREVRANGE: ([key = '', start = '0', stop = '-1', scores]) =>
      withScores(
        ranked(key, 0, -1)
          .reverse()
          .slice(Number(start), Number(stop) === -1 ? undefined : Number(stop) + 1),
        scores?.toUpperCase() === 'WITHSCORES',
      ),
    ZRANGEBYSCORE: ([key = '', min = '-inf', max = '+inf', limit, offset = '0', count = '-1']) => {
      const bound = (text: string) => (text === '-inf' ? -Infinity : text === '+inf' ? Infinity : Number(text))
      const within = ranked(key, 0, -1).filter(([, score]) => score >= bound(min) && score <= bound(max))
      const from = limit?.toUpperCase() === 'LIMIT' ? Number(offset) : 0
      const taken = limit?.toUpperCase() === 'LIMIT' && Number(count) >= 0 ? Number(count) : within.length
      return within.slice(from, from + taken).map(([member]) => member)
    },
    PUBLISH: () => 0,
    SPUBLISH: () => 0,
  }

  /** Runs a command as a client would, answering as Redis does. */
  function call(command: string, ...args: Array<string | number>): Value {
    const run = COMMANDS[command.toUpperCase()]
    if (run === undefined) throw new Error(`the stand-in of Redis has no ${command}`)
    return run(args.map(String))
  }

  // A Redis reply as Lua sees it: nil as false, an integer as a number, a status as { ok = ... }.
  function push(value: Value, status = false): void {
    if (value === null) lua.lua_pushboolean(L, false)
    else if (typeof value === 'number') {
      if (Number.isInteger(value) && Math.abs(value) < 2 ** 31) lua.lua_pushinteger(L, value)
      else lua.lua_pushnumber(L, value)
    } else if (typeof value === 'string') {
      if (status) {
        lua.lua_createtable(L, 0, 1)
        lua.lua_pushstring(L, to_luastring(value))
        lua.lua_setfield(L, -2, to_luastring('ok'))
      } else lua.lua_pushstring(L, to_luastring(value))
    } else {
      lua.lua_createtable(L, value.length, 0)
      value.forEach((item, index) => {
        push(item)
        lua.lua_rawseti(L, -2, index + 1)
      })
    }
  }

  // A script's answer as a client gets it: a number truncated to an integer, false and nil as
  // nil, true as 1, a table as the list of its items up to the first nil.
  function read(index: number): Value {
    switch (lua.lua_type(L, index)) {
      case lua.LUA_TNUMBER:
        return Math.trunc(lua.lua_tonumber(L, index))
      case lua.LUA_TSTRING:
        return lua.lua_tojsstring(L, index)
      case lua.LUA_TBOOLEAN:
        return lua.lua_toboolean(L, index) ? 1 : null
      case lua.LUA_TTABLE: {
        const at = index < 0 ? lua.lua_gettop(L) + index + 1 : index
        const items: Value[] = []
        for (let i = 1; ; i++) {
          lua.lua_rawgeti(L, at, i)
          if (lua.lua_type(L, -1) === lua.LUA_TNIL) {
            lua.lua_pop(L, 1)
            return items
          }
          items.push(read(-1))
          lua.lua_pop(L, 1)
        }
      }
      default:
        return null
    }
  }

  const redisCall = (state: typeof L): number => {
    const args: string[] = []
    for (let i = 1; i <= lua.lua_gettop(state); i++) args.push(lua.lua_tojsstring(state, i))
    const [command = '', ...rest] = args
    let reply: Value
    try {
      reply = call(command, ...rest)
    } catch (error) {
      return lauxlib.luaL_error(state, to_luastring(String((error as Error).message)))
    }
    push(reply, reply === 'OK')
    return 1
  }
  lua.lua_createtable(L, 0, 1)
  lua.lua_pushjsfunction(L, redisCall)
  lua.lua_setfield(L, -2, to_luastring('call'))
  lua.lua_setglobal(L, to_luastring('redis'))
  // Redis's Lua 5.1 has `unpack` as a global; 5.3 keeps it in `table`.
  lua.lua_getglobal(L, to_luastring('table'))
  lua.lua_getfield(L, -1, to_luastring('unpack'))
  lua.lua_setglobal(L, to_luastring('unpack'))
  lua.lua_pop(L, 1)

  const setList = (name: string, values: ReadonlyArray<string | number>) => {
    lua.lua_createtable(L, values.length, 0)
    values.forEach((value, index) => {
      lua.lua_pushstring(L, to_luastring(String(value)))
      lua.lua_rawseti(L, -2, index + 1)
    })
    lua.lua_setglobal(L, to_luastring(name))
  }

  /** Runs `script` (compiled once, as Redis caches it) with these KEYS and ARGV; a Lua error throws. */
  function run(script: string, keys: readonly string[], args: ReadonlyArray<string | number>): Value {
    let ref = compiled.get(script)
    if (ref === undefined) {
      if (lauxlib.luaL_loadstring(L, to_luastring(script)) !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(L, -1))
      ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX)
      compiled.set(script, ref)
    }
    setList('KEYS', keys)
    setList('ARGV', args)
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref)
    if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) {
      const message = lua.lua_tojsstring(L, -1)
      lua.lua_settop(L, 0)
      throw new Error(message)
    }
    const answer = read(-1)
    lua.lua_settop(L, 0)
    return answer
  }

  return { run, call }
}
