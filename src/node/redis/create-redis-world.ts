import type { Redis } from 'ioredis'
import type { ResolvedFaults } from '../../core/faults/fault-config.js'
import type { PetRepository } from '../../core/state/pet-repository.js'
import type { SharedWorld } from '../../core/state/shared-state.js'
import type { NewPet, Pet } from '../../core/store/pet.js'
import { idsExhausted, storageFull } from '../../core/store/create-pet-store.js'
import { storedPet } from '../../core/store/stored-pet.js'
import type { RedisBase } from './create-redis-base.js'
import { createRedisRateLimits, type WorldNews } from './create-redis-rate-limits.js'
import type { RedisKeys } from './redis-keys.js'
import type { RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

export interface RedisWorldOptions {
  name: string
  client: Redis
  scripts: RedisScripts
  keys: RedisKeys
  base: () => RedisBase
  /** The time source without any offset. */
  source: () => number
  /** The TTL of a named session's keys in ms (docs/decisions.md#d34); undefined for the default session. */
  ttlMs: number | undefined
  /** The registry's bounds, which every decision of a named session applies. */
  bounds: () => { max: number; idleMs: number }
  /** Told of the sessions a decision dropped, as the script answered them. */
  onDrops: (drops: string) => void
}

/** The scripts that start with WORLD's ARGV (redis-scripts.ts): they name the session. */
export type WorldScript = Exclude<keyof RedisScripts, 'followWorlds' | 'switchBase' | 'logRequests'>

/**
 * One session's world in Redis (the default session's included), as this process sees it: the
 * scripts that read and change it, each one round trip naming the session, and what the last of
 * them told of its clock offset, faults, scenarios and generation. Costs Redis nothing until used:
 * the first script that needs the session makes it from the start-up world.
 */
export function createRedisWorld(options: RedisWorldOptions) {
  const { name, client, scripts, keys, source, ttlMs } = options
  let offset = 0
  let faults: ResolvedFaults | undefined
  let faultsVersion = ''
  let scenarios: Readonly<Record<string, string>> | undefined
  let scenariosVersion = ''
  let generation = ''
  // When this process last used the world: the follower looks only at worlds in use.
  let usedAt = 0

  const news = (told: WorldNews) => {
    offset = Number(told.offset)
    generation = told.generation
    if (told.faults !== null) {
      faults = told.faults === '' ? undefined : (JSON.parse(told.faults) as ResolvedFaults)
      faultsVersion = told.faultsVersion
    }
    if (told.scenarios !== null) {
      scenarios = told.scenarios === '' ? undefined : (JSON.parse(told.scenarios) as Record<string, string>)
      scenariosVersion = told.scenariosVersion
    }
  }

  /** Runs one of the world's scripts (after WORLD's ARGV), seeding the base again if Redis came back empty. */
  async function run(script: WorldScript, ...args: Array<string | number>): Promise<unknown> {
    usedAt = source()
    try {
      const call = () => scripts[script](keys.meta, keys.prefix, name, source(), ttlMs ?? '', ...args)
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

  // Stored as the JSON of the contract's Pet, id first; the script puts the id in.
  const encode = ({ name: petName, categoryId, status }: NewPet) =>
    JSON.stringify(status === undefined ? { name: petName, categoryId } : { name: petName, categoryId, status })

  const pets = (maxPets: number): PetRepository<'later'> => {
    let ready: Promise<void> = Promise.resolve()
    // Counted and stored in one script, so creates racing on every process never pass the limit.
    const save = async (id: string, pet: Pet): Promise<Pet> => {
      const reply = await run('putPet', id, encode(pet), pet.status ?? '', maxPets)
      if (reply === -2) throw storageFull(maxPets)
      if (reply === -3) throw idsExhausted()
      return storedPet({ ...pet, id: Number(reply) })
    }
    const counts = async () => ((await run('petCounts')) as [string, string]).map(Number) as [number, number]
    return {
      ready: () => ready,
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
      // One parse for the whole page.
      list: async ({ status, limit }) => JSON.parse((await run('listPets', status ?? '', limit)) as string) as Pet[],
      async get(id) {
        const [json] = (await run('getPet', String(id))) as string[]
        return json === undefined ? undefined : (JSON.parse(json) as Pet)
      },
      create: (pet) => save('', { id: 0, ...pet }),
      put: (pet) => save(String(pet.id), pet),
      async all() {
        const [own, mine, replaced, theirs] = (await run('allPets')) as [string, string[], string[], string[]]
        const hidden = new Set(replaced.map(Number))
        const fromBase = own === '1' ? [] : (JSON.parse(`[${theirs.join(',')}]`) as Pet[]).filter((pet) => !hidden.has(pet.id))
        return fromBase.concat(JSON.parse(`[${mine.join(',')}]`) as Pet[]).sort((a, b) => a.id - b.id)
      },
      count: async () => (await counts())[0],
      nextId: async () => (await counts())[1],
    }
  }

  const set = async (what: 'offset' | 'advance' | 'faults' | 'scenarios', value: string) => String(await run('setWorld', what, value))

  const world: SharedWorld = {
    pets: (_seeding, { maxPets }) => pets(maxPets),
    rateLimits: ({ banAfter, banSeconds }) =>
      createRedisRateLimits({
        run: (script, ...args) => run(script, ...args),
        banAfter,
        banSeconds,
        known: () => ({ faultsVersion, scenariosVersion, ...options.bounds() }),
        onNews(told, drops) {
          news(told)
          if (drops !== '') options.onDrops(drops)
        },
      }),
    clockOffset: {
      get: () => offset,
      async set(value) {
        offset = Number(await set('offset', String(value)))
      },
      async add(ms) {
        offset = Number(await set('advance', String(ms)))
      },
      async refresh() {
        offset = Number((await client.hget(keys.session(name), 'offset').catch(redisUnavailable)) ?? '0')
      },
    },
    faults: {
      current: () => faults,
      resets: () => generation,
      async set(next) {
        const version = await set('faults', JSON.stringify(next))
        faults = next
        faultsVersion = version
      },
    },
    scenarios: {
      current: () => scenarios,
      async set(next) {
        const version = await set('scenarios', JSON.stringify(next))
        scenarios = { ...next }
        scenariosVersion = version
      },
    },
  }

  return {
    name,
    world,
    run,
    news,
    /** The generation this process last saw in force: log entries answered before a reset are not kept. */
    generation: () => generation,
    /** The versions this process holds, for `followWorlds`. */
    known: () => [faultsVersion, scenariosVersion] as const,
    /** Whether this process used the world since `since` (epoch ms, by the time source). */
    usedSince: (since: number) => usedAt >= since,
  }
}

export type RedisWorld = ReturnType<typeof createRedisWorld>
