import { lauxlib, lua, lualib, to_luastring } from 'fengari'

/** A value as a script sees a Redis reply, or as Redis answers a script's: a string, a number, nil, or a list of them. */
type Value = string | number | null | Value[]

/** A key's value in the fake Redis: a string, or a hash. */
type Entry = { type: 'string'; value: string } | { type: 'hash'; fields: Map<string, string> }

/**
 * Runs Redis scripts in fengari (a Lua VM in JavaScript) over an in-memory stand-in of Redis, with
 * KEYS and ARGV as Redis gives them, `redis.call` answering as Redis converts its replies, and the
 * script's answer converted as Redis converts it for a client. It keeps strings and hashes, and
 * knows the commands the rate-limit scripts call in the default session; any other throws,
 * naming it. Expiry is kept by no command: the test's clock is simulated.
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
    if (entry.type !== 'hash') throw new Error(`WRONGTYPE ${key} holds a string`)
    return entry.fields
  }

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
      data.set(to, entry.type === 'hash' ? { type: 'hash', fields: new Map(entry.fields) } : { ...entry })
      return 1
    },
    PEXPIRE: ([key = '']) => (data.has(key) ? 1 : 0),
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
