import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { ConfigError } from '../../core/errors/config-error.js'
import type { PetSeeding } from '../../core/state/shared-state.js'
import { storedPet } from '../../core/store/stored-pet.js'
import { digestGivenPets, seededPetsMismatch, type SeededPetsIdentity } from '../persistence/seeded-pets-identity.js'
import { packBucket } from './create-redis-rate-limits.js'
import type { RedisGroupKeys, RedisKeys } from './redis-keys.js'
import type { RedisClient, RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

const SEED_BATCH = 1_000
const SEEDING_LEASE_MS = 30_000
const SEEDING_WAIT_MS = 120_000

export interface RedisBaseOptions {
  client: RedisClient
  scripts: RedisScripts
  keys: RedisKeys
  where: string
  seeding: PetSeeding
}

/** Creates the start-up pets in Redis, every session's base, seeded once (D21, D33, D34). */
export function createRedisBase({ client, scripts, keys, where, seeding }: RedisBaseOptions) {
  let reseeding: Promise<void> | undefined
  // What a process must be seeded with to join (D33).
  const identity: SeededPetsIdentity = {
    seed: seeding.seed,
    pets: seeding.pets,
    given: seeding.given ? digestGivenPets(seeding.draw()) : undefined,
  }

  /** Fills a new generation in every group without one, unless another process was first. */
  async function fill(missing: RedisGroupKeys[]): Promise<void> {
    const gen = String(await client.incr(keys.generations))
    const { world } = seeding
    for (const group of missing) {
      let batch = client.pipeline()
      let size = 0
      let count = 0
      let id = 0
      for (const pet of seeding.draw()) {
        id = pet.id ?? id + 1
        count++
        batch.hset(group.basePets(gen), String(id), JSON.stringify(storedPet({ ...pet, id })))
        batch.zadd(group.baseIds(gen), id, String(id))
        if (pet.status !== undefined) batch.zadd(group.baseIds(gen, pet.status), id, String(id))
        if (++size >= SEED_BATCH) {
          await exec(batch)
          batch = client.pipeline()
          size = 0
        }
      }
      for (const [bucket, counts] of world?.quotas ?? []) batch.hset(group.baseQuotas(gen), bucket, packBucket(counts))
      await exec(batch)
      const nextId = world !== undefined && world.nextId > id + 1 ? world.nextId : ''
      await scripts.switchBase(
        group.meta,
        group.prefix,
        gen,
        seeding.seed,
        seeding.pets,
        identity.given ?? '',
        id,
        count,
        nextId,
        world?.clock ?? '',
      )
    }
  }

  /** Finds or seeds the pets in every group; refuses a state seeded otherwise. */
  async function ensureSeeded(): Promise<void> {
    const deadline = Date.now() + SEEDING_WAIT_MS
    for (;;) {
      const found = await Promise.all(
        keys.groups.map(async (group) => ({
          group,
          fields: await client.hmget(group.meta, 'base', 'seed', 'pets', 'given'),
        })),
      )
      for (const {
        fields: [base, seed, pets, given],
      } of found) {
        if (base === null) continue
        const mismatch = seededPetsMismatch(
          { seed: Number(seed), pets: Number(pets), given: given ?? undefined },
          identity,
        )
        if (mismatch !== undefined) throw new ConfigError(`${where} holds ${mismatch}, or use another --redis-prefix`)
      }
      const missing = found.filter(({ fields: [base] }) => base === null).map(({ group }) => group)
      if (missing.length === 0) return
      const token = randomUUID()
      if ((await client.set(keys.seeding, token, 'PX', SEEDING_LEASE_MS, 'NX')) === 'OK') {
        try {
          await fill(missing)
        } finally {
          if ((await client.get(keys.seeding)) === token) await client.del(keys.seeding)
        }
        continue
      }
      if (Date.now() > deadline)
        throw new ConfigError(`${where}: another process has been seeding for too long; start again`)
      await sleep(50)
    }
  }

  let ready: Promise<void> | undefined
  return {
    /** Seeds or finds the pets, once; rejects with a ConfigError when they disagree. */
    start(): Promise<void> {
      ready ??= ensureSeeded().catch((error: unknown) => {
        if (error instanceof ConfigError) throw error
        throw new ConfigError(`${where}: ${(error as Error).message}`)
      })
      return ready
    },
    ready: (): Promise<void> => ready ?? Promise.resolve(),
    /** Seeds again once, however many callers found Redis empty. */
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

async function exec(pipeline: ReturnType<RedisClient['pipeline']>): Promise<void> {
  const results = (await pipeline.exec()) ?? []
  for (const [error] of results) if (error) throw error
}
