import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import { ConfigError } from '../../core/errors/config-error.js'
import type { PetSeeding } from '../../core/state/shared-state.js'
import type { PetRepository } from '../../core/state/pet-repository.js'
import { PET_STATUSES, type NewPet, type Pet } from '../../core/store/pet.js'
import { storageFull } from '../../core/store/create-pet-store.js'
import { storedPet } from '../../core/store/stored-pet.js'
import { digestGivenPets, seededPetsMismatch, type SeededPetsIdentity } from '../persistence/seeded-pets-identity.js'
import type { RedisKeys } from './redis-keys.js'
import type { RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

const SEED_BATCH = 1_000
const SEEDING_LEASE_MS = 30_000
const SEEDING_WAIT_MS = 120_000

export interface RedisPetsOptions {
  client: Redis
  scripts: RedisScripts
  keys: RedisKeys
  /** Where the state lives, for the message of a disagreeing seed. */
  where: string
  seeding: PetSeeding
  /** The most pets stored at once, over every process: a create beyond it is refused (D23). */
  maxPets: number
}

/**
 * The pets in Redis: a hash of JSON by id and sorted sets of ids (all, and per status) per
 * generation. Seeded once: the first process to take the seeding lease fills a new generation and
 * switches to it; the others wait for it and seed nothing (docs/decisions.md#d21).
 */
export function createRedisPets({ client, scripts, keys, where, seeding, maxPets }: RedisPetsOptions): PetRepository & { reseed(): Promise<void> } {
  let ready: Promise<void> = Promise.resolve()
  let reseeding: Promise<void> | undefined

  const statusArgs = [...PET_STATUSES]
  // What a process must be seeded with to join (docs/decisions.md, "which seeded pets a state extends").
  const identity: SeededPetsIdentity = { seed: seeding.seed, pets: seeding.pets, given: seeding.given ? digestGivenPets(seeding.draw()) : undefined }
  // Stored as the JSON of the contract's Pet, id first; the scripts put the id in.
  const encode = ({ name, categoryId, status }: NewPet) => JSON.stringify(status === undefined ? { name, categoryId } : { name, categoryId, status })
  const withId = (id: number, pet: NewPet) => JSON.stringify(storedPet({ id, ...pet }))

  /** Fills a new generation with the seeded pets and switches to it; answers the generation in force. */
  async function fill(mode: 'seed' | 'reset', clock: boolean): Promise<string> {
    const gen = String(await client.incr(keys.generations))
    let batch = client.pipeline()
    let size = 0
    let id = 0
    for (const pet of seeding.draw()) {
      id = pet.id ?? id + 1
      batch.hset(keys.pets(gen), String(id), withId(id, pet))
      batch.zadd(keys.ids(gen), id, String(id))
      if (pet.status !== undefined) batch.zadd(keys.ids(gen, pet.status), id, String(id))
      if (++size >= SEED_BATCH) {
        await exec(batch)
        batch = client.pipeline()
        size = 0
      }
    }
    if (size > 0) await exec(batch)
    return String(
      await scripts.switchGeneration(keys.meta, keys.prefix, gen, seeding.seed, seeding.pets, mode, clock ? '1' : '0', identity.given ?? '', ...statusArgs),
    )
  }

  /** Finds the seeded pets, or seeds them when no process has; refuses a state seeded otherwise. */
  async function ensureSeeded(): Promise<void> {
    const deadline = Date.now() + SEEDING_WAIT_MS
    for (;;) {
      const [gen, seed, pets, given] = await client.hmget(keys.meta, 'gen', 'seed', 'pets', 'given')
      if (gen !== null) {
        const mismatch = seededPetsMismatch({ seed: Number(seed), pets: Number(pets), given: given ?? undefined }, identity)
        if (mismatch !== undefined) throw new ConfigError(`${where} holds ${mismatch}, or use another --redis-prefix`)
        return
      }
      const token = randomUUID()
      if ((await client.set(keys.seeding, token, 'PX', SEEDING_LEASE_MS, 'NX')) === 'OK') {
        try {
          await fill('seed', false)
        } finally {
          if ((await client.get(keys.seeding)) === token) await client.del(keys.seeding)
        }
        continue
      }
      if (Date.now() > deadline) throw new ConfigError(`${where}: another process has been seeding for too long; start again`)
      await sleep(50)
    }
  }

  /** Runs `script` once the state is seeded, seeding it again if Redis came back empty. */
  async function seeded<T>(script: () => Promise<unknown>, read: (reply: unknown) => T): Promise<T> {
    try {
      let reply = await script()
      if (reply === -1) {
        await reseed()
        reply = await script()
      }
      return read(reply)
    } catch (error) {
      return redisUnavailable(error)
    }
  }

  function reseed(): Promise<void> {
    reseeding ??= ensureSeeded().finally(() => {
      reseeding = undefined
    })
    return reseeding
  }

  // Counted and stored in one script, so creates racing on every process never pass the limit.
  const save = (id: string, pet: Pet) =>
    seeded(
      () => scripts.putPet(keys.meta, keys.prefix, id, encode(pet), pet.status ?? '', ...(id === '' ? [maxPets] : [])),
      (reply) => {
        if (reply === -2) throw storageFull(maxPets)
        return storedPet({ ...pet, id: Number(reply) })
      },
    )

  return {
    ready: () => ready,
    reseed,
    start() {
      ready = ensureSeeded().catch((error: unknown) => {
        if (error instanceof ConfigError) throw error
        throw new ConfigError(`${where}: ${(error as Error).message}`)
      })
      return ready
    },
    reset() {
      const done = ready.then(() => fill('reset', false).then(() => undefined, redisUnavailable))
      ready = done.catch(() => undefined)
      return done
    },
    list: ({ status, limit }) =>
      seeded(
        () => scripts.listPets(keys.meta, keys.prefix, status ?? '', limit),
        // One parse for the whole page.
        (reply) => JSON.parse(`[${(reply as string[]).join(',')}]`) as Pet[],
      ),
    get: (id) =>
      seeded(
        () => scripts.getPet(keys.meta, keys.prefix, String(id)),
        (reply) => {
          const [json] = reply as string[]
          return json === undefined ? undefined : (JSON.parse(json) as Pet)
        },
      ),
    create: (pet) => save('', { id: 0, ...pet }),
    put: (pet) => save(String(pet.id), pet),
    async all() {
      const gen = await client.hget(keys.meta, 'gen').catch(redisUnavailable)
      if (gen === null) return []
      const stored = await client.hgetall(keys.pets(gen)).catch(redisUnavailable)
      return (JSON.parse(`[${Object.values(stored).join(',')}]`) as Pet[]).sort((a, b) => a.id - b.id)
    },
    async count() {
      const gen = await client.hget(keys.meta, 'gen').catch(redisUnavailable)
      return gen === null ? 0 : client.hlen(keys.pets(gen)).catch(redisUnavailable)
    },
    async nextId() {
      return Number((await client.hget(keys.meta, 'nextId').catch(redisUnavailable)) ?? seeding.pets + 1)
    },
  }
}

async function exec(pipeline: ReturnType<Redis['pipeline']>): Promise<void> {
  const results = (await pipeline.exec()) ?? []
  for (const [error] of results) if (error) throw error
}
