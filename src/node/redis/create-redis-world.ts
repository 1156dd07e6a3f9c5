import type { PetRepository } from '../../core/state/pet-repository.js'
import type { SessionName, SharedWorld, WorldSettings } from '../../core/state/shared-state.js'
import type { NewPet, Pet } from '../../core/store/pet.js'
import { idsExhausted, sessionDropped, storageFull } from '../../core/store/create-pet-store.js'
import { storedPet } from '../../core/store/stored-pet.js'
import type { RedisBase } from './create-redis-base.js'
import type { RedisPages } from './create-redis-pages.js'
import { createRedisRateLimits, redisListing, type WorldNews } from './create-redis-rate-limits.js'
import type { RedisGroupKeys, RedisKeys } from './redis-keys.js'
import type { RedisFailover } from './redis-failover.js'
import type { RedisReplication } from './redis-replication.js'
import type { RedisClient, RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

export interface RedisWorldOptions {
  name: SessionName
  client: RedisClient
  scripts: RedisScripts
  keys: RedisKeys
  base: () => RedisBase
  source: () => number
  /** The TTL of a named session's keys in ms (D34); undefined for the default session. */
  ttlMs: number | undefined
  bounds: () => { max: number; idleMs: number }
  replication: RedisReplication
  failover: RedisFailover
  onDrops: (drops: string) => void
  /** Told of a bound key its session holds no more (D46). */
  onUnbound: (key: string) => void
  pages: RedisPages
}

export type WorldScript = Exclude<keyof RedisScripts, 'followWorlds' | 'switchBase' | 'logRequests'>

/** Creates a session's world in Redis: one round trip per script. */
export function createRedisWorld(options: RedisWorldOptions) {
  const { name, client, scripts, keys, source, ttlMs } = options
  const group = keys.of(name)
  let offset = 0
  // Undefined: none set, the origin's are in force.
  let settings: LiveSettings | undefined
  let version = ''
  let generation = ''
  // The follower looks only at worlds in use.
  let usedAt = 0

  const news = (told: WorldNews) => {
    offset = Number(told.offset)
    generation = told.generation
    if (told.settings === null) return
    settings = told.settings === '' ? undefined : kept(settings, JSON.parse(told.settings) as LiveSettings)
    version = told.version
  }

  /** Runs a world's script, seeding again if Redis came back empty. */
  const run = (script: WorldScript, ...args: Array<string | number>): Promise<unknown> => runIn(group, script, ...args)

  async function runIn(at: RedisGroupKeys, script: WorldScript, ...args: Array<string | number>): Promise<unknown> {
    usedAt = source()
    try {
      const call = () =>
        options.failover.ride(() =>
          script === 'putPet' && options.replication.waits(at.meta)
            ? options.replication.replicated(
                at.meta,
                (on) =>
                  (on as unknown as Record<WorldScript, (...all: Array<string | number>) => unknown>)[script](
                    at.meta,
                    at.prefix,
                    name,
                    source(),
                    ttlMs ?? '',
                    ...args,
                  ),
                // Not an id: nothing stored, nothing to wait for.
                (reply) => Number(reply) > 0,
                async (id) => {
                  const found = await scripts.getPet(at.meta, at.prefix, name, source(), ttlMs ?? '', String(id))
                  return Array.isArray(found) && found.length > 0
                },
              )
            : scripts[script](at.meta, at.prefix, name, source(), ttlMs ?? '', ...args),
        )
      let reply = await call()
      if (reply === -1) {
        await options.base().reseed()
        reply = await call()
      }
      return reply
    } catch (error) {
      return redisUnavailable(error)
    }
  }

  async function allPets(): Promise<Pet[]> {
    const [own, mine, replaced, theirs] = (await run('allPets')) as [string, string[], string[], string[]]
    const hidden = new Set(replaced.map(Number))
    const fromBase =
      own === '1' ? [] : (JSON.parse(`[${theirs.join(',')}]`) as Pet[]).filter((pet) => !hidden.has(pet.id))
    return fromBase.concat(JSON.parse(`[${mine.join(',')}]`) as Pet[]).sort((a, b) => a.id - b.id)
  }

  const encode = ({ name: petName, categoryId, status }: NewPet) =>
    JSON.stringify(status === undefined ? { name: petName, categoryId } : { name: petName, categoryId, status })

  const pets = (maxPets: number): PetRepository<'later'> => {
    let ready: Promise<void> = Promise.resolve()
    // One script counts and stores, so racing creates never pass the limit.
    const save = async (id: string, pet: Pet): Promise<Pet> => {
      // A create sent again through a failover finds the pet its first sending made (D44).
      const { boundMs } = options.failover
      const token = id === '' && boundMs > 0 ? crypto.randomUUID() : ''
      const reply = await run('putPet', id, encode(pet), pet.status ?? '', maxPets, token, 2 * boundMs)
      if (reply === -2) throw storageFull(maxPets)
      if (reply === -3) throw idsExhausted()
      if (reply === -4) throw sessionDropped()
      return storedPet({ ...pet, id: Number(reply) })
    }
    const counts = async () => ((await run('petCounts')) as [string, string]).map(Number) as [number, number]
    return {
      ready: () => ready,
      // Every read here waits on Redis anyway.
      pending: () => ready,
      start() {
        ready = options.base().start()
        return ready
      },
      reset() {
        const done = ready.then(async () => {
          generation = String(await run('resetWorld'))
        })
        ready = done.catch(() => undefined)
        return done
      },
      readAhead: redisListing,
      list: async ({ status, limit }) => JSON.parse((await run('listPets', status ?? '', limit)) as string) as Pet[],
      async get(id) {
        const [json] = (await run('getPet', String(id))) as string[]
        return json === undefined ? undefined : (JSON.parse(json) as Pet)
      },
      create: (pet) => save('', { id: 0, ...pet }),
      put: (pet) => save(String(pet.id), pet),
      all: allPets,
      count: async () => (await counts())[0],
      nextId: async () => (await counts())[1],
    }
  }

  const set = async (what: 'offset' | 'advance', value: string) => String(await run('setWorld', what, value))
  const change = async <K extends keyof LiveSettings>(name: K, value: LiveSettings[K]) => {
    const [changed, json] = (await run('setWorld', 'settings', name, JSON.stringify(value))) as [number, string]
    settings = kept(settings, JSON.parse(json) as LiveSettings)
    version = String(changed)
  }
  /** Copies the default session's offset into the other groups (D44). */
  const spreadOffset = async () => {
    if (name !== 'default') return
    const others = keys.groups.filter((other) => other !== group)
    await Promise.all(others.map((other) => client.hset(other.meta, 'doffset', String(offset)))).catch(redisUnavailable)
  }

  const world: SharedWorld = {
    pets: (_seeding, { maxPets }) => pets(maxPets),
    rateLimits: ({ banAfter, banSeconds }) =>
      createRedisRateLimits({
        run: (script, ...args) => run(script, ...args),
        banAfter,
        banSeconds,
        known: () => ({ version, ...options.bounds() }),
        onUnbound: options.onUnbound,
        pages: options.pages.of(group.prefix),
        onNews(told, drops) {
          news(told)
          if (drops !== '') options.onDrops(drops)
        },
      }),
    clockOffset: {
      get: () => offset,
      async set(value) {
        offset = Number(await set('offset', String(value)))
        await spreadOffset()
      },
      async add(ms) {
        offset = Number(await set('advance', String(ms)))
        await spreadOffset()
      },
      async refresh() {
        offset = Number((await client.hget(group.session(name), 'offset').catch(redisUnavailable)) ?? '0')
      },
    },
    faults: {
      current: () => settings?.faults,
      resets: () => generation,
      set: (next) => change('faults', next),
    },
    scenarios: {
      current: () => settings?.scenarios,
      set: (next) => change('scenarios', { ...next }),
      seed: () => settings?.seed,
    },
  }

  return {
    name,
    world,
    group,
    run,
    runIn,
    allPets,
    news,
    /** Log entries answered before a reset are not kept. */
    generation: () => generation,
    known: () => version,
    usedSince: (since: number) => usedAt >= since,
  }
}

export type RedisWorld = ReturnType<typeof createRedisWorld>

/** The settings a world may have in force. */
type LiveSettings = Partial<Omit<WorldSettings, 'clock'>>

/** Returns `next`, keeping each unchanged setting of `before`: followers compare by identity. */
function kept(before: LiveSettings | undefined, next: LiveSettings): LiveSettings {
  if (before === undefined) return next
  const same = Object.fromEntries(
    Object.entries(next).map(([name, value]) => {
      const old = before[name as keyof LiveSettings]
      return [name, old !== undefined && JSON.stringify(old) === JSON.stringify(value) ? old : value]
    }),
  )
  return same as LiveSettings
}
