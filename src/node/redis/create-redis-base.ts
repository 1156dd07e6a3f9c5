import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import { ConfigError } from '../../core/errors/config-error.js'
import type { PetSeeding } from '../../core/state/shared-state.js'
import { storedPet } from '../../core/store/stored-pet.js'
import { digestGivenPets, seededPetsMismatch, type SeededPetsIdentity } from '../persistence/seeded-pets-identity.js'
import { packBucket } from './create-redis-rate-limits.js'
import type { RedisKeys } from './redis-keys.js'
import type { RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

const SEED_BATCH = 1_000
const SEEDING_LEASE_MS = 30_000
const SEEDING_WAIT_MS = 120_000

export interface RedisBaseOptions {
  client: Redis
  scripts: RedisScripts
  keys: RedisKeys
  /** Where the state lives, for the message of a disagreeing seed. */
  where: string
  seeding: PetSeeding
}

/**
 * The start-up pets in Redis, every session's base (docs/decisions.md#d34): a hash of JSON by id
 * and sorted sets of ids (all, and per status) of one generation, written once and never changed.
 * The first process to take the seeding lease fills a new generation and switches to it; the
 * others wait for it and seed nothing, and a process seeded otherwise is refused
 * (docs/decisions.md#d21, #d33).
 */
export function createRedisBase({ client, scripts, keys, where, seeding }: RedisBaseOptions) {
  let reseeding: Promise<void> | undefined
  // What a process must be seeded with to join (docs/decisions.md, "which seeded pets a state extends").
  const identity: SeededPetsIdentity = { seed: seeding.seed, pets: seeding.pets, given: seeding.given ? digestGivenPets(seeding.draw()) : undefined }

  /** Fills a new generation with the seeded pets and switches to it, unless another process was first. */
  async function fill(): Promise<void> {
    const gen = String(await client.incr(keys.generations))
    let batch = client.pipeline()
    let size = 0
    let count = 0
    let id = 0
    for (const pet of seeding.draw()) {
      id = pet.id ?? id + 1
      count++
      batch.hset(keys.basePets(gen), String(id), JSON.stringify(storedPet({ ...pet, id })))
      batch.zadd(keys.baseIds(gen), id, String(id))
      if (pet.status !== undefined) batch.zadd(keys.baseIds(gen, pet.status), id, String(id))
      if (++size >= SEED_BATCH) {
        await exec(batch)
        batch = client.pipeline()
        size = 0
      }
    }
    const { world } = seeding
    for (const [bucket, counts] of world?.quotas ?? []) batch.hset(keys.baseQuotas(gen), bucket, packBucket(counts))
    await exec(batch)
    const nextId = world !== undefined && world.nextId > id + 1 ? world.nextId : ''
    await scripts.switchBase(keys.meta, keys.prefix, gen, seeding.seed, seeding.pets, identity.given ?? '', id, count, nextId, world?.clock ?? '')
  }

  /** Finds the seeded pets, or seeds them when no process has; refuses a state seeded otherwise. */
  async function ensureSeeded(): Promise<void> {
    const deadline = Date.now() + SEEDING_WAIT_MS
    for (;;) {
      const [base, seed, pets, given] = await client.hmget(keys.meta, 'base', 'seed', 'pets', 'given')
      if (base !== null) {
        const mismatch = seededPetsMismatch({ seed: Number(seed), pets: Number(pets), given: given ?? undefined }, identity)
        if (mismatch !== undefined) throw new ConfigError(`${where} holds ${mismatch}, or use another --redis-prefix`)
        return
      }
      const token = randomUUID()
      if ((await client.set(keys.seeding, token, 'PX', SEEDING_LEASE_MS, 'NX')) === 'OK') {
        try {
          await fill()
        } finally {
          if ((await client.get(keys.seeding)) === token) await client.del(keys.seeding)
        }
        continue
      }
      if (Date.now() > deadline) throw new ConfigError(`${where}: another process has been seeding for too long; start again`)
      await sleep(50)
    }
  }

  let ready: Promise<void> | undefined
  return {
    /** Seeds, or finds the pets another process seeded; once. Rejects (ConfigError) when they cannot be. */
    start(): Promise<void> {
      ready ??= ensureSeeded().catch((error: unknown) => {
        if (error instanceof ConfigError) throw error
        throw new ConfigError(`${where}: ${(error as Error).message}`)
      })
      return ready
    },
    /** Resolves once the base is there (rejects when it cannot be); before `start`, at once. */
    ready: (): Promise<void> => ready ?? Promise.resolve(),
    /** Seeds the state again, once however many callers found it empty (Redis came back without its data). */
    reseed(): Promise<void> {
      reseeding ??= ensureSeeded()
        .catch(redisUnavailable)
        .finally(() => {
          reseeding = undefined
        })
      return reseeding
    },
  }
}

export type RedisBase = ReturnType<typeof createRedisBase>

async function exec(pipeline: ReturnType<Redis['pipeline']>): Promise<void> {
  const results = (await pipeline.exec()) ?? []
  for (const [error] of results) if (error) throw error
}
