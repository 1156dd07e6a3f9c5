/**
 * The rate-limit decision (D12, D15), shared by `quota` and `quotaThenList`: it leaves the answer
 * in `reply`, and `outcome` and the generation `m[1]` for what follows.
 */
const DECIDE = `local m = redis.call('HMGET', KEYS[1], 'gen', 'offset', 'fv', 'faults')
if not m[1] then return -1 end
local offset = m[2] or '0'
local t = math.floor(tonumber(ARGV[5]) + tonumber(offset))
local key = ARGV[1] .. 'rl:' .. m[1] .. ':' .. ARGV[2]
local perMinute, perDay = tonumber(ARGV[3]), tonumber(ARGV[4])
local ms = t - (t % 60000)
local ds = t - (t % 86400000)
local mu, du, rs, rc, bu = 0, 0, ms, 0, 0
local b = redis.call('HMGET', key, 'ms', 'mu', 'ds', 'du', 'rs', 'rc', 'bu')
if b[1] then
  mu, du, rs, rc, bu = tonumber(b[2]), tonumber(b[4]), tonumber(b[5]), tonumber(b[6]), tonumber(b[7])
  if tonumber(b[1]) ~= ms then mu = 0 end
  if tonumber(b[3]) ~= ds then du = 0 end
end
local outcome = 0
local mode = ARGV[8]
if mode == 'take' then
  if bu > t then
    outcome = 2
  elseif perMinute - mu <= 0 or perDay - du <= 0 then
    local ws = ms
    if perDay - du <= 0 then ws = ds end
    if rs ~= ws then rs = ws; rc = 0 end
    rc = rc + 1
    if rc > tonumber(ARGV[6]) then
      bu = t + tonumber(ARGV[7]); rc = 0; outcome = 2
    else
      outcome = 1
    end
  else
    mu = mu + 1; du = du + 1
  end
elseif mode == 'arrange' then
  local function clamp(v, limit)
    v = math.floor(tonumber(v))
    if v < 0 then v = 0 end
    if v > limit then v = limit end
    return v
  end
  local minute = ARGV[10]
  if minute == '' then minute = ARGV[12] end
  if minute ~= '' then mu = perMinute - clamp(minute, perMinute) end
  if ARGV[11] ~= '' then
    du = perDay - clamp(ARGV[11], perDay)
  elseif ARGV[12] ~= '' then
    local left = clamp(ARGV[12], perDay)
    if perDay - du > left then left = perDay - du end
    du = perDay - left
  end
  if ARGV[13] == 'lift' then
    bu = 0; rc = 0
  elseif ARGV[13] ~= '' then
    bu = t + tonumber(ARGV[13])
  end
end
if mode ~= 'peek' then
  redis.call('HSET', key, 'ms', ms, 'mu', mu, 'ds', ds, 'du', du, 'rs', rs, 'rc', rc, 'bu', bu)
  local keep = ds + 86400000 - t
  if bu - t > keep then keep = bu - t end
  redis.call('PEXPIRE', key, keep + 60000)
end
local faults = false
if m[3] and m[3] ~= ARGV[9] then faults = m[4] end
local reply = {outcome, t, ms, mu, ds, du, rs, rc, bu, offset, m[3] or '0', faults, m[1]}
`

/**
 * The Lua scripts of the shared state. Each reads the generation from the meta hash (KEYS[1]) and
 * names its keys from it, so a reset is one switch of generation; each decision is one script,
 * one round trip, never a read then a write from Node (docs/decisions.md#d21). Keys are built inside
 * the scripts, which standalone Redis and Valkey allow and Redis Cluster does not.
 * A script answers -1 when the meta hash has no generation: the state is not seeded (yet, or any
 * more, after Redis came back empty).
 */
export const REDIS_SCRIPTS = {
  /**
   * A rate-limit bucket (D12, D15). ARGV: prefix, bucket, perMinute, perDay, now without offset,
   * banAfter, ban ms, mode ('take' | 'peek' | 'arrange'), faults version known, then for 'arrange'
   * minute left, day left, remaining, ban ('' | 'lift' | ms), each '' when not changed. Answers the
   * outcome (0 allowed, 1 refused, 2 banned), the instant, the bucket's fields, the clock offset,
   * the faults version, the faults when their version differs from the one known, and the
   * generation in force.
   */
  quota: `${DECIDE}return reply
`,

  /**
   * `quota` in mode 'take' (ARGV 1 to 9 as there, 10 to 13 ''), then, only when the request is
   * allowed, the JSON of the first ARGV[15] pets, by status ARGV[14] or all, as `listPets` reads
   * them: one round trip for a listing instead of two. Answers one text, cheaper to send and to
   * decode than a nested reply: `quota`'s 13 fields, each followed by a newline (the faults '' when
   * not sent; JSON text has no raw newline), then the page as a JSON array ('' when refused).
   */
  quotaThenList: `${DECIDE}local page = ''
if outcome == 0 then
  local ids = ARGV[1] .. 'ids:' .. m[1]
  if ARGV[14] ~= '' then ids = ids .. ':' .. ARGV[14] end
  local found = redis.call('ZRANGE', ids, 0, tonumber(ARGV[15]) - 1)
  page = '[]'
  if #found > 0 then page = '[' .. table.concat(redis.call('HMGET', ARGV[1] .. 'pets:' .. m[1], unpack(found)), ',') .. ']' end
end
for i = 1, 9 do reply[i] = string.format('%.0f', reply[i]) end
if not reply[12] then reply[12] = '' end
return table.concat(reply, '\\n') .. '\\n' .. page
`,

  /** The JSON of the first ARGV[3] pets, by status ARGV[2] or all, in id order. */
  listPets: `
local gen = redis.call('HGET', KEYS[1], 'gen')
if not gen then return -1 end
local ids = ARGV[1] .. 'ids:' .. gen
if ARGV[2] ~= '' then ids = ids .. ':' .. ARGV[2] end
local found = redis.call('ZRANGE', ids, 0, tonumber(ARGV[3]) - 1)
if #found == 0 then return {} end
return redis.call('HMGET', ARGV[1] .. 'pets:' .. gen, unpack(found))
`,

  /** The JSON of pet ARGV[2], in a list: empty when there is no such pet. */
  getPet: `
local gen = redis.call('HGET', KEYS[1], 'gen')
if not gen then return -1 end
local pet = redis.call('HGET', ARGV[1] .. 'pets:' .. gen, ARGV[2])
if not pet then return {} end
return {pet}
`,

  /**
   * Stores a pet: ARGV prefix, id ('' assigns the next one), its JSON without the id, status (''
   * for none), and for a new id assigned the most pets stored (D23). The id goes first into the
   * stored JSON, so reads answer the text as stored. An id beyond every assigned one moves the
   * next id past it. Answers the id, or -2 when the store is full and nothing was stored.
   */
  putPet: `
local gen = redis.call('HGET', KEYS[1], 'gen')
if not gen then return -1 end
local prefix = ARGV[1]
local pets = prefix .. 'pets:' .. gen
local ids = prefix .. 'ids:' .. gen
local id = ARGV[2]
if id == '' then
  if redis.call('HLEN', pets) >= tonumber(ARGV[5]) then return -2 end
  id = tostring(redis.call('HINCRBY', KEYS[1], 'nextId', 1) - 1)
else
  local old = redis.call('HGET', pets, id)
  if old then
    local status = cjson.decode(old).status
    if status then redis.call('ZREM', ids .. ':' .. status, id) end
  elseif tonumber(id) >= tonumber(redis.call('HGET', KEYS[1], 'nextId')) then
    redis.call('HSET', KEYS[1], 'nextId', tonumber(id) + 1)
  end
end
redis.call('HSET', pets, id, '{"id":' .. id .. ',' .. string.sub(ARGV[3], 2))
redis.call('ZADD', ids, id, id)
if ARGV[4] ~= '' then redis.call('ZADD', ids .. ':' .. ARGV[4], id, id) end
return tonumber(id)
`,

  /**
   * Makes generation ARGV[2] the current one, filled with the seeded pets: ARGV prefix, generation,
   * seed, pets, 'reset' or 'seed', '1' to put the clock back, the given pets' digest ('' for
   * generated pets: the field is removed, as in a state seeded before it existed), then the
   * statuses. Seeding keeps a
   * generation already there (another process was first); a reset drops the previous one, and the
   * request log starts over with the new generation.
   * Answers the generation in force.
   */
  switchGeneration: `
local prefix, gen = ARGV[1], ARGV[2]
local old = redis.call('HGET', KEYS[1], 'gen')
local function drop(g)
  redis.call('UNLINK', prefix .. 'pets:' .. g, prefix .. 'ids:' .. g)
  for i = 8, #ARGV do redis.call('UNLINK', prefix .. 'ids:' .. g .. ':' .. ARGV[i]) end
end
if ARGV[5] == 'seed' and old then
  drop(gen)
  return old
end
redis.call('HSET', KEYS[1], 'gen', gen, 'seed', ARGV[3], 'pets', ARGV[4], 'nextId', tonumber(ARGV[4]) + 1)
if ARGV[7] == '' then redis.call('HDEL', KEYS[1], 'given') else redis.call('HSET', KEYS[1], 'given', ARGV[7]) end
if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'offset', '0') end
if old and old ~= gen then drop(old) end
redis.call('UNLINK', prefix .. 'log')
return gen
`,

  /**
   * Appends answered requests to the log, keeping the last ARGV[2], and publishes them on the
   * requests channel as `<sender> [entries]`. ARGV prefix, capacity, the generation they were
   * answered in ('' when unknown), sender, the channel (it names the database, which a script
   * cannot read), then the entries' JSON, oldest first. Entries answered before a reset are
   * published but not kept, so a reset's empty log stays empty.
   */
  logRequests: `
local prefix = ARGV[1]
local capacity = tonumber(ARGV[2])
local gen = redis.call('HGET', KEYS[1], 'gen')
if capacity > 0 and (ARGV[3] == '' or ARGV[3] == gen) then
  -- Entries beyond the capacity would be trimmed at once: only the newest are pushed.
  redis.call('LPUSH', prefix .. 'log', unpack(ARGV, math.max(6, #ARGV - capacity + 1)))
  redis.call('LTRIM', prefix .. 'log', 0, capacity - 1)
end
redis.call('PUBLISH', ARGV[5], ARGV[4] .. ' [' .. table.concat(ARGV, ',', 6) .. ']')
return 1
`,
} as const
