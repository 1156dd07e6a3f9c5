// The few calls of fengari's C-like API (Lua 5.3 in JavaScript) that run-redis-lua.ts makes; fengari ships no types.
declare module 'fengari' {
  type State = { readonly __state: unique symbol }
  type LuaString = Uint8Array
  export const lua: {
    LUA_OK: number
    LUA_REGISTRYINDEX: number
    LUA_TNIL: number
    LUA_TBOOLEAN: number
    LUA_TNUMBER: number
    LUA_TSTRING: number
    LUA_TTABLE: number
    lua_pushjsfunction(L: State, fn: (L: State) => number): void
    lua_setglobal(L: State, name: LuaString): void
    lua_getglobal(L: State, name: LuaString): number
    lua_newtable(L: State): void
    lua_createtable(L: State, narr: number, nrec: number): void
    lua_pushstring(L: State, value: LuaString): void
    lua_pushnumber(L: State, value: number): void
    lua_pushinteger(L: State, value: number): void
    lua_pushboolean(L: State, value: boolean): void
    lua_pushnil(L: State): void
    lua_rawseti(L: State, index: number, n: number): void
    lua_rawgeti(L: State, index: number, n: number): number
    lua_setfield(L: State, index: number, key: LuaString): void
    lua_getfield(L: State, index: number, key: LuaString): number
    lua_gettop(L: State): number
    lua_settop(L: State, index: number): void
    lua_pop(L: State, n: number): void
    lua_type(L: State, index: number): number
    lua_toboolean(L: State, index: number): boolean
    lua_tonumber(L: State, index: number): number
    lua_tojsstring(L: State, index: number): string
    lua_rawlen(L: State, index: number): number
    lua_pcall(L: State, nargs: number, nresults: number, handler: number): number
  }
  export const lauxlib: {
    luaL_newstate(): State
    luaL_loadstring(L: State, source: LuaString): number
    luaL_ref(L: State, table: number): number
    luaL_error(L: State, message: LuaString): number
  }
  export const lualib: { luaL_openlibs(L: State): void }
  export function to_luastring(value: string): LuaString
}
