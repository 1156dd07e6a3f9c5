import { PET_STATUSES } from '../../core/store/pet.js'
import { REDIS_LAYOUT, REQUEST_LOG } from './redis-keys.js'

/*
 * The keys under P, a group's prefix (redis-keys.ts; D21, D34, D44). KEYS[1] is `P meta`: layout, seed, pets, given,
 * base (its generation), lastId, count, added (pets beyond the base), snext, sclock (the start-up world's), doffset
 * (the default session's offset), logged, lseq.
 * - `P base:<g>:{pets,ids,ids:<status>,q}`: the base; pets id -> JSON, q the start-up buckets.
 * - `P s:<name>`: gen, nextId, created, exp, offset, `S:<setting>` and v (their version), own ('1': no base), w ('1':
 *   its overlay may hold pets), base, lastId, count, `K:<key>` (D46), and its origin's okind, ofrom, oclock,
 *   `O:<setting>`, onext, oadded, ow, ogen.
 * - `P s:<name>:<gen>:{pets,ids,ids:<status>,replaced,q}`: its overlay, q bucket -> "ms mu ds du rs rc bu";
 *   `:o<ogen>:…` its origin's; `:<gen>:rl:<bucket>` an address's bucket; `:made:<token>` a create's id.
 * - `P worlds` (a counter), `P added`, `P sessions` (by last use), `P s:<name>:log`, `P logs`, `P logcounts`.
 */

const STATUSES = `{${PET_STATUSES.map((status) => `'${status}'`).join(', ')}}`

const LOG = `local OLDEST, COUNTS = P .. '${REQUEST_LOG.oldest}', P .. '${REQUEST_LOG.counts}'
local function logOf(name) return P .. 's:' .. name .. ':${REQUEST_LOG.list}' end
-- Forgets session \`name\`'s entries (its list, its place among the oldest, its share of the
-- count), the list gone with its TTL or not; answers how many.
local function forgetLog(name)
  local n = tonumber(redis.call('HGET', COUNTS, name) or '0')
  if n == 0 then return 0 end
  redis.call('UNLINK', logOf(name))
  redis.call('ZREM', OLDEST, name)
  redis.call('HDEL', COUNTS, name)
  redis.call('HINCRBY', KEYS[1], '${REQUEST_LOG.kept}', -n)
  return n
end
`

/** Starts every script of a world: ARGV prefix, session, now (ms, no offset), TTL ms or ''; -1 when no base. */
const WORLD = `local P, NAME, SOURCE, TTL = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
-- The base's generation, last id and count, read by \`based\` (a session's meta holds a copy: the
-- base changes only when Redis lost everything, sessions included).
local BGEN, LAST_ID, BASE_COUNT
local REG = P .. 'sessions'
local named = NAME ~= 'default' and TTL ~= ''
local function based(gen, last, count)
  if gen then
    BGEN, LAST_ID, BASE_COUNT = gen, tonumber(last), tonumber(count)
    return true
  end
  local B = redis.call('HMGET', KEYS[1], 'base', 'lastId', 'count')
  if not B[1] then return false end
  BGEN, LAST_ID, BASE_COUNT = B[1], tonumber(B[2]), tonumber(B[3])
  return true
end
-- An integer as Redis keeps it: a number given to redis.call is written with 14 digits.
local function int(n) return string.format('%.0f', n) end
local function meta(name) return P .. 's:' .. name end
-- The settings a session's meta holds under \`mark\` ('S:' in force, 'O:' its origin's) as one JSON
-- object, '' when it holds none: the script never reads a setting, so a new one needs no change here.
local function settingsOf(name, mark)
  local all, out = redis.call('HGETALL', meta(name)), {}
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, 2) == mark then out[#out + 1] = '"' .. string.sub(all[i], 3) .. '":' .. all[i + 1] end
  end
  if #out == 0 then return '' end
  return '{' .. table.concat(out, ',') .. '}'
end
local function part(name, gen, p) return P .. 's:' .. name .. ':' .. gen .. ':' .. p end
-- The helpers of making, registering and dropping sessions, made on first need: a decision in a
-- world that exists defines none of them (each costs an allocation per run).
local cold
local function C()
  if cold then return cold end
  local STATUSES = ${STATUSES}
  ${LOG}
  local parts, defaultNow, setAdded, addedOf, expire, startUp, ensure, unlinkWorld, drop, sweep, register, info
  function parts(name, gen)
    local list = {part(name, gen, 'pets'), part(name, gen, 'ids'), part(name, gen, 'replaced'), part(name, gen, 'q')}
    for _, s in ipairs(STATUSES) do list[#list + 1] = part(name, gen, 'ids:' .. s) end
    return list
  end
  function defaultNow()
    -- In a group without the default session, the copy of its offset (redis-keys.ts).
    return SOURCE + tonumber(redis.call('HGET', P .. 's:default', 'offset') or redis.call('HGET', KEYS[1], 'doffset') or '0')
  end
  function setAdded(name, count)
    local before = tonumber(redis.call('HGET', P .. 'added', name) or '0')
    if count == 0 then redis.call('HDEL', P .. 'added', name) else redis.call('HSET', P .. 'added', name, int(count)) end
    if count ~= before then redis.call('HINCRBY', KEYS[1], 'added', count - before) end
  end
  function addedOf(name) return tonumber(redis.call('HGET', P .. 'added', name) or '0') end
  function expire(name, gen, ogen)
    if not named then return end
    redis.call('PEXPIRE', meta(name), TTL)
    for _, k in ipairs(parts(name, gen)) do redis.call('PEXPIRE', k, TTL) end
    redis.call('PEXPIRE', logOf(name), TTL)
    if ogen then for _, k in ipairs(parts(name, 'o' .. ogen)) do redis.call('PEXPIRE', k, TTL) end end
    redis.call('HSET', meta(name), 'exp', string.format('%.0f', SOURCE + tonumber(TTL)))
  end
  -- The start-up world's next id and clock's instant (a capsule's: \`start --from\`), and its key
  -- buckets copied into generation \`gen\` of session \`name\`.
  function startUp(name, gen)
    local s = redis.call('HMGET', KEYS[1], 'snext', 'sclock')
    local nextId = LAST_ID + 1
    if s[1] and tonumber(s[1]) > nextId then nextId = tonumber(s[1]) end
    redis.call('COPY', P .. 'base:' .. BGEN .. ':q', part(name, gen, 'q'), 'REPLACE')
    return nextId, s[2]
  end
  function ensure(name)
    local m = meta(name)
    local gen = redis.call('HGET', m, 'gen')
    if gen then return gen end
    gen = tostring(redis.call('INCR', P .. 'worlds'))
    local nextId, clock = startUp(name, gen)
    -- The pets and log entries of an earlier session of this name whose keys went with their TTL.
    setAdded(name, 0)
    forgetLog(name)
    -- A new version of its settings (none: the start-up ones), so a process that knew an earlier
    -- session of this name takes them up.
    redis.call('HSET', m, 'gen', gen, 'nextId', int(nextId), 'onext', int(nextId), 'created', int(defaultNow()), 'okind', 'start-up',
      'v', redis.call('INCR', P .. 'worlds'), 'base', BGEN, 'lastId', int(LAST_ID), 'count', int(BASE_COUNT))
    if clock then redis.call('HSET', m, 'offset', string.format('%.0f', tonumber(clock) - SOURCE), 'oclock', clock) end
    if name == NAME then expire(name, gen) end
    -- In the registry from its first use, whatever used it; the next counted use applies the bounds.
    if name ~= 'default' then redis.call('ZADD', P .. 'sessions', 'NX', string.format('%.0f', defaultNow()), name) end
    return gen
  end
  function unlinkWorld(name)
    local m = redis.call('HMGET', meta(name), 'gen', 'ogen')
    if m[1] then redis.call('UNLINK', unpack(parts(name, m[1]))) end
    if m[2] then redis.call('UNLINK', unpack(parts(name, 'o' .. m[2]))) end
    redis.call('UNLINK', meta(name))
  end
  function drop(name, drops, why)
    unlinkWorld(name)
    redis.call('ZREM', REG, name)
    setAdded(name, 0)
    forgetLog(name)
    drops[#drops + 1] = why .. ':' .. name
  end
  function sweep(now, idle, except, drops)
    for _, n in ipairs(redis.call('ZRANGEBYSCORE', REG, '-inf', string.format('%.0f', now - idle), 'LIMIT', 0, 100)) do
      if n ~= except then drop(n, drops, 'i') end
    end
  end
  -- Counts a use of named session \`name\`: first the idle ones go (\`name\` too, when it was: it
  -- starts over, as in memory), then the least recently used beyond \`max\`. Answers the drops
  -- ('i:<name>' idle, 'l:<name>' least recently used, space-separated).
  function register(name, max, idle)
    local now = defaultNow()
    local drops = {}
    sweep(now, idle, '', drops)
    redis.call('ZADD', REG, string.format('%.0f', now), name)
    -- Also for a session made by a call that did not count its use (ensure): it is counted now.
    local over = redis.call('ZCARD', REG) - max
    if over > 0 then
      for _, n in ipairs(redis.call('ZRANGE', REG, 0, over)) do
        if over > 0 and n ~= name then
          drop(n, drops, 'l')
          over = over - 1
        end
      end
    end
    return table.concat(drops, ' ')
  end
  function info(name, lastUsed)
    local m = redis.call('HMGET', meta(name), 'created', 'okind', 'ofrom', 'oclock')
    return {name, m[1] or '0', lastUsed or '0', m[2] or 'start-up', m[3] or '', m[4] or '', settingsOf(name, 'O:')}
  end
  cold = {parts = parts, defaultNow = defaultNow, setAdded = setAdded, addedOf = addedOf, expire = expire, startUp = startUp, ensure = ensure, forgetLog = forgetLog, unlinkWorld = unlinkWorld, drop = drop, sweep = sweep, register = register, info = info}
  return cold
end
local function page(gen, own, w, status, limit)
  local suffix = ''
  if status ~= '' then suffix = ':' .. status end
  local mine, replaced = {}, 0
  if gen and w == '1' then
    mine = redis.call('ZRANGE', part(NAME, gen, 'ids' .. suffix), 0, limit - 1)
    replaced = redis.call('SCARD', part(NAME, gen, 'replaced'))
  end
  local theirs = {}
  if own ~= '1' then
    local ids = P .. 'base:' .. BGEN .. ':ids' .. suffix
    if replaced == 0 then
      theirs = redis.call('ZRANGE', ids, 0, limit - 1)
    else
      -- The base's ids in chunks, less those this world replaced, until the page is full.
      local size, from = limit + math.min(replaced, 500), 0
      while #theirs < limit do
        local chunk = redis.call('ZRANGE', ids, from, from + size - 1)
        if #chunk == 0 then break end
        local hidden = redis.call('SMISMEMBER', part(NAME, gen, 'replaced'), unpack(chunk))
        for i = 1, #chunk do
          if hidden[i] == 0 and #theirs < limit then theirs[#theirs + 1] = chunk[i] end
        end
        if #chunk < size then break end
        from = from + size
      end
    end
  end
  local function pets(key, ids)
    if #ids == 0 then return {} end
    return redis.call('HMGET', key, unpack(ids))
  end
  local a, b = pets(P .. 'base:' .. BGEN .. ':pets', theirs), {}
  if #mine == 0 then return '[' .. table.concat(a, ',') .. ']' end
  b = pets(part(NAME, gen, 'pets'), mine)
  if #theirs == 0 then return '[' .. table.concat(b, ',') .. ']' end
  local out, i, j = {}, 1, 1
  while #out < limit and (i <= #theirs or j <= #mine) do
    if j > #mine or (i <= #theirs and tonumber(theirs[i]) < tonumber(mine[j])) then
      out[#out + 1] = a[i]; i = i + 1
    else
      out[#out + 1] = b[j]; j = j + 1
    end
  end
  return '[' .. table.concat(out, ',') .. ']'
end
`

/**
 * Decides a bucket (D12, D15): ARGV 5 bucket, 6 perMinute, 7 perDay, 8 banAfter, 9 ban ms, 10 mode (take, peek,
 * arrange), 11 settings' version known, 12 most sessions, 13 idle ms, 14 to 17 arrange's minute left, day left,
 * remaining, ban ('lift' or ms), 18 minute ms, 19 day ms, 20 a bound key. '' is none. An absent named session is
 * made only once allowed (D34); -5 for a bound key its session lost (D46). Leaves reply, outcome, gen, own, m.
 */
const DECIDE = `${WORLD}if ARGV[20] and ARGV[20] ~= '' and redis.call('HEXISTS', meta(NAME), 'K:' .. ARGV[20]) == 0 then return -5 end
local drops = ''
local mode = ARGV[10]
-- A named session that does not exist yet is made only once the decision lets its request
-- through (D34): until then it is decided over the start-up world's buckets, writing nothing.
local pending = NAME ~= 'default' and mode ~= 'arrange' and redis.call('EXISTS', meta(NAME)) == 0
if NAME ~= 'default' and not pending then drops = C().register(NAME, tonumber(ARGV[12]), tonumber(ARGV[13])) end
local function read()
  return redis.call('HMGET', meta(NAME), 'offset', 'v', 'own', 'gen', 'exp', 'ogen', 'w', 'base', 'lastId', 'count')
end
local m = read()
local gen = m[4]
if not gen then
  if not based() then return -1 end
  if not pending then
    gen = C().ensure(NAME)
    m = read()
  end
end
if not based(m[8], m[9], m[10]) then return -1 end
if named and gen and SOURCE > tonumber(m[5] or '0') - tonumber(TTL) / 2 then C().expire(NAME, gen, m[6]) end
local offset = m[1] or '0'
local sclock = pending and redis.call('HGET', KEYS[1], 'sclock')
if sclock then offset = string.format('%.0f', tonumber(sclock) - SOURCE) end
local own = m[3]
local t = math.floor(SOURCE + tonumber(offset))
local bucket = ARGV[5]
local isKey = string.sub(bucket, 1, 4) == 'key:'
local q, rl = P .. 'base:' .. BGEN .. ':q', false
if not pending then q, rl = part(NAME, gen, 'q'), part(NAME, gen, 'rl:' .. bucket) end
local perMinute, perDay = tonumber(ARGV[6]), tonumber(ARGV[7])
local MINUTE, DAY = tonumber(ARGV[18]), tonumber(ARGV[19])
local ms = t - (t % MINUTE)
local ds = t - (t % DAY)
local mu, du, rs, rc, bu = 0, 0, ms, 0, 0
local raw
if isKey then raw = redis.call('HGET', q, bucket) elseif rl then raw = redis.call('GET', rl) end
if raw then
  local bms, bmu, bds, bdu, brs, brc, bbu = string.match(raw, '^(%d+) (%d+) (%d+) (%d+) (%d+) (%d+) (%d+)$')
  mu, du, rs, rc, bu = tonumber(bmu), tonumber(bdu), tonumber(brs), tonumber(brc), tonumber(bbu)
  if tonumber(bms) ~= ms then mu = 0 end
  if tonumber(bds) ~= ds then du = 0 end
end
local outcome = 0
if mode == 'take' then
  if bu > t then
    outcome = 2
  elseif perMinute - mu <= 0 or perDay - du <= 0 then
    local ws = ms
    if perDay - du <= 0 then ws = ds end
    if rs ~= ws then rs = ws; rc = 0 end
    rc = rc + 1
    if rc > tonumber(ARGV[8]) then
      bu = t + tonumber(ARGV[9]); rc = 0; outcome = 2
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
  local minute = ARGV[14]
  if minute == '' then minute = ARGV[16] end
  if minute ~= '' then mu = perMinute - clamp(minute, perMinute) end
  if ARGV[15] ~= '' then
    du = perDay - clamp(ARGV[15], perDay)
  elseif ARGV[16] ~= '' then
    local left = clamp(ARGV[16], perDay)
    if perDay - du > left then left = perDay - du end
    du = perDay - left
  end
  if ARGV[17] == 'lift' then
    bu = 0; rc = 0
  elseif ARGV[17] ~= '' then
    bu = t + tonumber(ARGV[17])
  end
end
if pending and outcome == 0 then
  drops = C().register(NAME, tonumber(ARGV[12]), tonumber(ARGV[13]))
  gen = C().ensure(NAME)
  m = read()
  own = m[3]
  q, rl = part(NAME, gen, 'q'), part(NAME, gen, 'rl:' .. bucket)
  pending = false
end
if mode ~= 'peek' and not pending then
  local packed = string.format('%.0f %.0f %.0f %.0f %.0f %.0f %.0f', ms, mu, ds, du, rs, rc, bu)
  if isKey then
    if redis.call('HSET', q, bucket, packed) == 1 and named then redis.call('PEXPIRE', q, TTL) end
  else
    local keep = ds + DAY - t
    if bu - t > keep then keep = bu - t end
    redis.call('SET', rl, packed, 'PX', keep + MINUTE)
  end
end
local settings = false
if m[2] and m[2] ~= ARGV[11] then settings = settingsOf(NAME, 'S:') end
local reply = {outcome, t, ms, mu, ds, du, rs, rc, bu, offset, gen or '', m[2] or '0', settings, drops}
`

/** Lists the Lua scripts: a decision is one round trip in one slot (D21, D44). */
export const REDIS_SCRIPTS = {
  /**
   * Answers `{outcome (0 allowed, 1 refused, 2 banned), t, ms, mu, ds, du, rs, rc, bu, offset, gen, version, settings,
   * drops}`: settings JSON when the version moved ('' none set, false same); drops 'i:<name>' (idle), 'l:<name>' (LRU).
   */
  quota: `${DECIDE}return reply
`,

  /**
   * Takes as `quota`, then when allowed lists ARGV[22] pets of status ARGV[21]; ARGV[23] is the base generation whose
   * page the caller keeps. Answers text: `quota`'s 14 fields (settings '' or '=' and JSON), 15th the base generation
   * of a base-only page, each ending in a newline, then the page ('' when refused or kept).
   */
  quotaThenList: `${DECIDE}local listed, of = '', ''
if outcome == 0 then
  if own ~= '1' and not (gen and m[7] == '1') then of = BGEN end
  if of == '' or of ~= ARGV[23] then listed = page(gen, own, m[7], ARGV[21], tonumber(ARGV[22])) end
end
for i = 1, 9 do reply[i] = string.format('%.0f', reply[i]) end
if reply[13] then reply[13] = '=' .. reply[13] else reply[13] = '' end
reply[15] = of
return table.concat(reply, '\\n') .. '\\n' .. listed
`,

  /** Answers the JSON array of the first ARGV[6] pets of status ARGV[5] ('' for all), in id order. */
  listPets: `${WORLD}local m = redis.call('HMGET', meta(NAME), 'base', 'lastId', 'count', 'gen', 'own', 'w')
if not based(m[1], m[2], m[3]) then return -1 end
return page(m[4], m[5], m[6], ARGV[5], tonumber(ARGV[6]))
`,

  /** Answers `{JSON}` of pet ARGV[5], or `{}`. */
  getPet: `${WORLD}local m = redis.call('HMGET', meta(NAME), 'base', 'lastId', 'count', 'gen', 'own', 'w')
if not based(m[1], m[2], m[3]) then return -1 end
if m[4] and m[6] == '1' then
  local pet = redis.call('HGET', part(NAME, m[4], 'pets'), ARGV[5])
  if pet then return {pet} end
end
if m[5] ~= '1' then
  local pet = redis.call('HGET', P .. 'base:' .. BGEN .. ':pets', ARGV[5])
  if pet then return {pet} end
end
return {}
`,

  /** Answers `{count, nextId}` as text: ioredis rounds integers past 2^53/2. */
  petCounts: `${WORLD}if not based() then return -1 end
local m = redis.call('HMGET', meta(NAME), 'nextId', 'own')
local count = C().addedOf(NAME)
if m[2] ~= '1' then count = count + BASE_COUNT end
return {int(count), m[1] or int(LAST_ID + 1)}
`,

  /** Answers `{own, its pets, the ids it replaced, the base's pets}`, unsorted. */
  allPets: `${WORLD}if not based() then return -1 end
local m = redis.call('HMGET', meta(NAME), 'gen', 'own')
local mine, replaced, theirs = {}, {}, {}
if m[1] then
  mine = redis.call('HVALS', part(NAME, m[1], 'pets'))
  replaced = redis.call('SMEMBERS', part(NAME, m[1], 'replaced'))
end
if m[2] ~= '1' then theirs = redis.call('HVALS', P .. 'base:' .. BGEN .. ':pets') end
return {m[2] or '', mine, replaced, theirs}
`,

  /**
   * Stores a pet: ARGV 5 id ('' for the next), 6 JSON without the id, 7 status, 8 most pets (D23), 9 a create's
   * token, 10 its keep ms (D44). Answers the id as text, a token's earlier one; -2 full, -3 past 2^53-1 (D37),
   * -4 dropped (D34).
   */
  putPet: `${WORLD}if not based() then return -1 end
local made = ARGV[9] ~= '' and P .. 's:' .. NAME .. ':made:' .. ARGV[9]
if made then
  local was = redis.call('GET', made)
  if was then return was end
end
-- A create whose session was dropped once its use was counted makes no session again (D34).
if named and ARGV[5] == '' and redis.call('EXISTS', meta(NAME)) == 0 then return -4 end
local gen = C().ensure(NAME)
local m = redis.call('HMGET', meta(NAME), 'own', 'nextId', 'w')
if m[3] ~= '1' then redis.call('HSET', meta(NAME), 'w', '1') end
local pets, ids, replaced = part(NAME, gen, 'pets'), part(NAME, gen, 'ids'), part(NAME, gen, 'replaced')
local id = ARGV[5]
local counted = false
if id == '' then
  -- Past 2^53-1 an id would round onto another (D37).
  if tonumber(m[2] or (LAST_ID + 1)) > ${Number.MAX_SAFE_INTEGER} then return -3 end
  if BASE_COUNT + tonumber(redis.call('HGET', KEYS[1], 'added') or '0') >= tonumber(ARGV[8]) then return -2 end
  id = int(redis.call('HINCRBY', meta(NAME), 'nextId', 1) - 1)
  counted = true
else
  local n = tonumber(id)
  local old = redis.call('HGET', pets, id)
  if old then
    local status = cjson.decode(old).status
    if status then redis.call('ZREM', ids .. ':' .. status, id) end
  elseif m[1] ~= '1' and n <= LAST_ID then
    redis.call('SADD', replaced, id)
    counted = redis.call('HEXISTS', P .. 'base:' .. BGEN .. ':pets', id) == 0
  else
    counted = true
    if n >= tonumber(m[2] or (LAST_ID + 1)) then redis.call('HSET', meta(NAME), 'nextId', int(n + 1)) end
  end
end
redis.call('HSET', pets, id, '{"id":' .. id .. ',' .. string.sub(ARGV[6], 2))
redis.call('ZADD', ids, id, id)
local written = {pets, ids, replaced}
if ARGV[7] ~= '' then
  redis.call('ZADD', ids .. ':' .. ARGV[7], id, id)
  written[#written + 1] = ids .. ':' .. ARGV[7]
end
if counted then C().setAdded(NAME, C().addedOf(NAME) + 1) end
if named then for _, k in ipairs(written) do redis.call('PEXPIRE', k, TTL) end end
if made then redis.call('SET', made, id, 'PX', ARGV[10]) end
return id
`,

  /** Resets to the origin in a new generation, the log emptied. Answers the generation. */
  resetWorld: `${WORLD}if not based() then return -1 end
C().ensure(NAME)
local m = redis.call('HMGET', meta(NAME), 'gen', 'ogen', 'onext', 'oadded', 'ow')
local gen = tostring(redis.call('INCR', P .. 'worlds'))
if m[2] then
  local from, to = C().parts(NAME, 'o' .. m[2]), C().parts(NAME, gen)
  for i = 1, #from do redis.call('COPY', from[i], to[i], 'REPLACE') end
else
  C().startUp(NAME, gen)
end
redis.call('UNLINK', unpack(C().parts(NAME, m[1])))
redis.call('HSET', meta(NAME), 'gen', gen, 'nextId', m[3] or int(LAST_ID + 1))
if m[5] then redis.call('HSET', meta(NAME), 'w', m[5]) else redis.call('HDEL', meta(NAME), 'w') end
C().setAdded(NAME, tonumber(m[4] or '0'))
C().expire(NAME, gen, m[2])
C().forgetLog(NAME)
return gen
`,

  /**
   * Makes session NAME anew: ARGV 5 most sessions, 6 idle ms, 7 origin kind, 8 session forked, 9 origin clock, 10 the
   * gen of `o<gen>` keys Node wrote, 11 and 12 their next id and pet count, 13 most pets, then setting, JSON pairs (a
   * fork's own win). Answers `info`'s fields then the drops; `{-2, pets brought}` past the most pets (D23).
   */
  putWorld: `${WORLD}if not based() then return -1 end
local kind, from = ARGV[7], ARGV[8]
local brings = 0
if kind == 'fork' and ARGV[10] == '' then brings = C().addedOf(from) elseif ARGV[10] ~= '' then brings = tonumber(ARGV[12]) end
local held = BASE_COUNT + tonumber(redis.call('HGET', KEYS[1], 'added') or '0') - C().addedOf(NAME)
if brings > 0 and held + brings > tonumber(ARGV[13]) then
  if ARGV[10] ~= '' then redis.call('UNLINK', unpack(C().parts(NAME, 'o' .. ARGV[10]))) end
  return {-2, int(brings)}
end
local settings = {}
for i = 14, #ARGV, 2 do settings[#settings + 1] = {ARGV[i], ARGV[i + 1]} end
local created = false
if NAME == 'default' then created = redis.call('HGET', meta(NAME), 'created') end
local gen = tostring(redis.call('INCR', P .. 'worlds'))
local ogen, nextId, added, own, w = false, false, 0, false, false
-- The copies first: a session may be forked from itself.
if kind == 'fork' and ARGV[10] == '' then
  local sgen = C().ensure(from)
  local s = redis.call('HMGET', meta(from), 'nextId', 'own', 'w')
  -- The source's own in force, over those given: this process's view of them, maybe a second old.
  local all = redis.call('HGETALL', meta(from))
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, 2) == 'S:' then settings[#settings + 1] = {string.sub(all[i], 3), all[i + 1]} end
  end
  ogen = gen
  local src, o, to = C().parts(from, sgen), C().parts(NAME, 'o' .. ogen), C().parts(NAME, gen)
  for i = 1, #src do
    redis.call('COPY', src[i], o[i], 'REPLACE')
    redis.call('COPY', src[i], to[i], 'REPLACE')
  end
  nextId, added, own, w = s[1] or nextId, C().addedOf(from), s[2], s[3]
elseif ARGV[10] ~= '' then
  -- A capsule, or a fork of another group's session read by Node: written under o<ARGV[10]>.
  ogen = ARGV[10]
  local o, to = C().parts(NAME, 'o' .. ogen), C().parts(NAME, gen)
  for i = 1, #o do
    if NAME == 'default' then redis.call('PERSIST', o[i]) end
    redis.call('COPY', o[i], to[i], 'REPLACE')
  end
  nextId, added, own, w = ARGV[11], tonumber(ARGV[12]), '1', '1'
else
  nextId = int(C().startUp(NAME, gen))
end
local old = redis.call('HMGET', meta(NAME), 'gen', 'ogen')
if old[1] then redis.call('UNLINK', unpack(C().parts(NAME, old[1]))) end
if old[2] and old[2] ~= ogen then redis.call('UNLINK', unpack(C().parts(NAME, 'o' .. old[2]))) end
redis.call('UNLINK', meta(NAME))
local now = C().defaultNow()
local clock = ARGV[9]
local offset = '0'
if clock ~= '' then offset = string.format('%.0f', tonumber(clock) - SOURCE) end
redis.call('HSET', meta(NAME), 'gen', gen, 'nextId', nextId, 'created', created or string.format('%.0f', now), 'okind', kind,
  'offset', offset, 'v', redis.call('INCR', P .. 'worlds'), 'onext', nextId, 'oadded', int(added), 'base', BGEN, 'lastId', int(LAST_ID), 'count', int(BASE_COUNT))
-- In force and as the origin's, which a later pair of the same name (the source's own) overrides.
for _, setting in ipairs(settings) do redis.call('HSET', meta(NAME), 'S:' .. setting[1], setting[2], 'O:' .. setting[1], setting[2]) end
if from ~= '' then redis.call('HSET', meta(NAME), 'ofrom', from) end
if clock ~= '' then redis.call('HSET', meta(NAME), 'oclock', clock) end
if ogen then redis.call('HSET', meta(NAME), 'ogen', ogen) end
if own then redis.call('HSET', meta(NAME), 'own', own) end
if w then redis.call('HSET', meta(NAME), 'w', w, 'ow', w) end
C().setAdded(NAME, added)
C().expire(NAME, gen, ogen)
C().forgetLog(NAME)
local dropped = ''
if NAME ~= 'default' then dropped = C().register(NAME, tonumber(ARGV[5]), tonumber(ARGV[6])) end
local reply = C().info(NAME, string.format('%.0f', now))
reply[#reply + 1] = dropped
return reply
`,

  /** Counts a use of NAME, made when absent: ARGV 5 most sessions, 6 idle ms. Answers `info`, then drops. */
  useWorld: `${WORLD}if not based() then return -1 end
local dropped = C().register(NAME, tonumber(ARGV[5]), tonumber(ARGV[6]))
local gen = C().ensure(NAME)
C().expire(NAME, gen, redis.call('HGET', meta(NAME), 'ogen'))
local reply = C().info(NAME, redis.call('ZSCORE', REG, NAME))
reply[#reply + 1] = dropped
return reply
`,

  /** Sweeps sessions idle past ARGV[5] ms; answers `info` of each (ARGV[6] alone), most recent first, then drops. */
  listWorlds: `${WORLD}local drops = {}
C().sweep(C().defaultNow(), tonumber(ARGV[5]), '', drops)
local reply = {}
local names
if ARGV[6] ~= '' then
  local score = redis.call('ZSCORE', REG, ARGV[6])
  names = {}
  if score then names = {ARGV[6], score} end
else
  names = redis.call('ZREVRANGE', REG, 0, -1, 'WITHSCORES')
end
for i = 1, #names, 2 do
  if redis.call('EXISTS', meta(names[i])) == 0 then
    redis.call('ZREM', REG, names[i])
    C().setAdded(names[i], 0)
    C().forgetLog(names[i])
  else
    for _, v in ipairs(C().info(names[i], names[i + 1])) do reply[#reply + 1] = v end
  end
end
reply[#reply + 1] = table.concat(drops, ' ')
return reply
`,

  /** Drops named session NAME. Answers 1, or 0 when there was none. */
  deleteWorld: `${WORLD}local known = redis.call('ZSCORE', REG, NAME) or redis.call('EXISTS', meta(NAME)) == 1
if not known then return 0 end
C().drop(NAME, {}, 'd')
return 1
`,

  /**
   * Sets ARGV[5]: 'offset' to ARGV[6], 'advance' by ARGV[6] ms, or 'settings' from pairs at ARGV[6]. Answers the
   * offset, or `{version, settings}`.
   */
  setWorld: `${WORLD}if not based() then return -1 end
C().ensure(NAME)
local what, value = ARGV[5], ARGV[6]
if what == 'offset' then
  redis.call('HSET', meta(NAME), 'offset', value)
  return value
elseif what == 'advance' then
  return redis.call('HINCRBYFLOAT', meta(NAME), 'offset', value)
end
local version = redis.call('INCR', P .. 'worlds')
for i = 6, #ARGV, 2 do redis.call('HSET', meta(NAME), 'S:' .. ARGV[i], ARGV[i + 1]) end
redis.call('HSET', meta(NAME), 'v', version)
return {version, settingsOf(NAME, 'S:')}
`,

  /**
   * Follows worlds: ARGV prefix, then session, version known pairs. Answers per session gen, offset, version,
   * settings (as `quota`).
   */
  followWorlds: `local P = ARGV[1]
local reply = {}
for i = 2, #ARGV, 2 do
  local m = redis.call('HMGET', P .. 's:' .. ARGV[i], 'gen', 'offset', 'v')
  local settings = false
  if m[3] and m[3] ~= ARGV[i + 1] then
    local all, out = redis.call('HGETALL', P .. 's:' .. ARGV[i]), {}
    for j = 1, #all, 2 do
      if string.sub(all[j], 1, 2) == 'S:' then out[#out + 1] = '"' .. string.sub(all[j], 3) .. '":' .. all[j + 1] end
    end
    settings = ''
    if #out > 0 then settings = '{' .. table.concat(out, ',') .. '}' end
  end
  for _, v in ipairs({m[1] or '', m[2] or '0', m[3] or '0', settings}) do reply[#reply + 1] = v end
end
return reply
`,

  /**
   * Puts base ARGV[2] in force, or drops it when another is in force: ARGV prefix, gen, seed, pets, given, lastId,
   * count, snext, sclock. Answers the generation in force.
   */
  switchBase: `
local P, gen = ARGV[1], ARGV[2]
local q = P .. 'base:' .. gen .. ':q'
local old = redis.call('HGET', KEYS[1], 'base')
if old then
  redis.call('UNLINK', P .. 'base:' .. gen .. ':pets', P .. 'base:' .. gen .. ':ids', q)
  for _, s in ipairs(${STATUSES}) do redis.call('UNLINK', P .. 'base:' .. gen .. ':ids:' .. s) end
  return old
end
redis.call('HSET', KEYS[1], 'layout', '${REDIS_LAYOUT}', 'base', gen, 'seed', ARGV[3], 'pets', ARGV[4], 'lastId', ARGV[6], 'count', ARGV[7], 'added', 0)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'given', ARGV[5]) end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'snext', ARGV[8]) end
if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], 'sclock', ARGV[9]) end
return gen
`,

  /**
   * Keeps the group's newest ARGV[2] entries and publishes `<sender> [entries]`: ARGV prefix, capacity, channel,
   * sender, then session, gen, JSON; an entry of an older generation or a gone session is not kept.
   */
  logRequests: `
local P = ARGV[1]
local capacity = tonumber(ARGV[2])
${LOG}local gens, kept, sent = {}, {}, {}
for i = 5, #ARGV, 3 do
  local session, gen, entry = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  sent[#sent + 1] = entry
  local name = session
  if name == '' then name = 'default' end
  if gens[name] == nil then gens[name] = redis.call('HGET', P .. 's:' .. name, 'gen') or false end
  if gen == gens[name] or (gen == '' and (gens[name] or name == 'default')) then kept[#kept + 1] = {name, entry} end
end
if capacity > 0 and #kept > 0 then
  -- Entries beyond the capacity would be trimmed at once: only the newest are pushed.
  local from = math.max(1, #kept - capacity + 1)
  local count = #kept - from + 1
  local sequence = redis.call('HINCRBY', KEYS[1], '${REQUEST_LOG.sequence}', count) - count
  local order, lists = {}, {}
  for i = from, #kept do
    sequence = sequence + 1
    local name = kept[i][1]
    if not lists[name] then
      lists[name] = {first = sequence}
      order[#order + 1] = name
    end
    local list = lists[name]
    list[#list + 1] = string.format('%.0f', sequence) .. ' ' .. kept[i][2]
  end
  for _, name in ipairs(order) do
    local list, log, length = lists[name], logOf(name), 0
    for j = 1, #list, 1000 do length = redis.call('LPUSH', log, unpack(list, j, math.min(j + 999, #list))) end
    if length == #list then redis.call('ZADD', OLDEST, string.format('%.0f', list.first), name) end
    redis.call('HINCRBY', COUNTS, name, #list)
    -- It expires with its session's meta (a named session's TTL), which renews both.
    local ttl = redis.call('PTTL', P .. 's:' .. name)
    if ttl > 0 then redis.call('PEXPIRE', log, ttl) end
  end
  -- Past the capacity, the oldest entries go, from whichever sessions hold them: each step pops
  -- from the session holding the oldest while its next is older than the runner-up's.
  local held = redis.call('HINCRBY', KEYS[1], '${REQUEST_LOG.kept}', count)
  while held > capacity do
    local two = redis.call('ZRANGE', OLDEST, 0, 1, 'WITHSCORES')
    -- Counted entries no list holds (the keys went by hand): the count starts over.
    if #two == 0 then
      redis.call('HSET', KEYS[1], '${REQUEST_LOG.kept}', 0)
      break
    end
    local name, log = two[1], logOf(two[1])
    local runnerUp = math.huge
    if two[4] then runnerUp = tonumber(two[4]) end
    local popped, tail = 0, false
    repeat
      if not redis.call('RPOP', log) then break end
      popped = popped + 1
      tail = redis.call('LINDEX', log, -1)
    until not tail or held - popped <= capacity or tonumber(string.match(tail, '^%d+')) > runnerUp
    if popped == 0 then
      -- Its list went with its TTL: its count goes now.
      held = held - forgetLog(name)
      redis.call('ZREM', OLDEST, name)
    elseif tail then
      held = held - popped
      redis.call('ZADD', OLDEST, string.match(tail, '^%d+'), name)
      redis.call('HINCRBY', COUNTS, name, -popped)
      redis.call('HINCRBY', KEYS[1], '${REQUEST_LOG.kept}', -popped)
    else
      held = held - popped
      redis.call('ZREM', OLDEST, name)
      redis.call('HDEL', COUNTS, name)
      redis.call('HINCRBY', KEYS[1], '${REQUEST_LOG.kept}', -popped)
    end
  end
end
-- A channel under a hash tag is a sharded one, in this slot (redis-keys.ts).
local publish = 'PUBLISH'
if string.sub(ARGV[3], 1, 1) == '{' then publish = 'SPUBLISH' end
redis.call(publish, ARGV[3], ARGV[4] .. ' [' .. table.concat(sent, ',') .. ']')
return 1
`,
} as const
