import { createLru } from '../../core/cache/create-lru.js'
import { checkSessionName, DEFAULT_SESSION, type SessionName } from '../../core/sessions/session-name.js'
import type {
  DropReason,
  OriginKind,
  SharedOrigin,
  SharedSessionInfo,
  SharedSessions,
  SharedSessionsPolicy,
  WorldSettings,
} from '../../core/state/shared-state.js'
import type { Pet } from '../../core/store/pet.js'
import { sessionTooLarge } from '../../core/store/create-pet-store.js'
import { storedPet } from '../../core/store/stored-pet.js'
import type { RedisBase } from './create-redis-base.js'
import { packBucket } from './create-redis-rate-limits.js'
import { createRedisPages } from './create-redis-pages.js'
import { createRedisWorld, type RedisWorld } from './create-redis-world.js'
import { createRedisBoundKeys } from './create-redis-bound-keys.js'
import type { RedisGroupKeys, RedisKeys } from './redis-keys.js'
import type { RedisFailover } from './redis-failover.js'
import type { RedisReplication } from './redis-replication.js'
import type { RedisClient, RedisScripts } from './redis-scripts-client.js'
import { redisUnavailable } from './redis-unavailable.js'

// How often other processes' changes are taken up (docs/running-for-a-team.md).
const FOLLOW_MS = 1_000
// Unused worlds are not followed: their next decision brings the news.
const FOLLOW_IDLE_MS = 60_000
const DEFAULT = DEFAULT_SESSION

export interface RedisSessionsOptions {
  client: RedisClient
  scripts: RedisScripts
  keys: RedisKeys
  base: () => RedisBase
  source: () => number
  replication: RedisReplication
  failover: RedisFailover
}

/** Creates a Redis state's worlds and session registry (D34). */
export function createRedisSessions({
  client,
  scripts,
  keys,
  base,
  source,
  replication,
  failover,
}: RedisSessionsOptions) {
  let policy: SharedSessionsPolicy | undefined
  const handles = createLru<RedisWorld>(() => 2 * bounds().max)
  const boundKeys = createRedisBoundKeys({ client, keys })
  const pages = createRedisPages()

  const bounds = () => ({ max: policy?.max ?? 0, idleMs: policy?.idleMs ?? 0 })
  // Each group's share of the most sessions (D44).
  const groupBounds = () => ({ ...bounds(), max: Math.ceil(bounds().max / keys.groups.length) })
  const onDrops = (drops: string) => {
    if (drops === '') return
    for (const drop of drops.split(' ')) {
      const [why, dropped = ''] = [drop.slice(0, 1), drop.slice(2)]
      const name = kept(dropped)
      handles.delete(name)
      const reason: DropReason | undefined =
        why === 'i'
          ? { kind: 'idle', idleMs: bounds().idleMs }
          : why === 'l'
            ? { kind: 'least-recently-used', max: bounds().max }
            : undefined
      if (reason !== undefined) policy?.onDrop?.(name, reason)
    }
  }
  const make = (name: SessionName) =>
    createRedisWorld({
      name,
      client,
      scripts,
      keys,
      base,
      source,
      // Twice the idle time, should no process drop it (D34).
      ttlMs: name === DEFAULT ? undefined : 2 * bounds().idleMs,
      bounds: groupBounds,
      replication,
      failover,
      onDrops,
      onUnbound: boundKeys.forget,
      pages,
    })
  const defaultWorld = make(DEFAULT)

  function handle(name: SessionName): RedisWorld {
    if (name === DEFAULT) return defaultWorld
    return handles.use(name) ?? handles.put(name, make(name))
  }

  const follow = async () => {
    const since = source() - FOLLOW_IDLE_MS
    const byGroup = new Map<RedisGroupKeys, RedisWorld[]>()
    for (const world of [defaultWorld, ...[...handles.values()].filter((world) => world.usedSince(since))]) {
      byGroup.set(world.group, [...(byGroup.get(world.group) ?? []), world])
    }
    await Promise.all([...byGroup].map(([group, followed]) => followIn(group, followed)))
  }
  const followIn = async (group: RedisGroupKeys, followed: RedisWorld[]) => {
    const args = followed.flatMap((world) => [world.name, world.known()])
    const reply = (await scripts.followWorlds(group.meta, group.prefix, ...args)) as Array<string | null>
    followed.forEach((world, index) => {
      const [generation, offset, version, settings] = reply.slice(index * 4, index * 4 + 4) as [
        string,
        string,
        string,
        string | null,
      ]
      // Another process reset, replaced or dropped it.
      const known = world.generation()
      if (known !== '' && generation !== known && world.name !== DEFAULT) {
        handles.delete(world.name)
        policy?.onStale?.(world.name)
        return
      }
      if (generation !== '') world.news({ generation, offset, version, settings })
    })
  }
  const timer = setInterval(() => {
    follow().catch(() => undefined)
  }, FOLLOW_MS)
  timer.unref()

  const call = async (
    name: SessionName,
    script: 'useWorld' | 'putWorld' | 'listWorlds' | 'deleteWorld',
    ...args: Array<string | number>
  ) => handle(name).run(script, ...args)

  const sessions: SharedSessions = {
    world: (name) => handle(name).world,
    async use(name) {
      const reply = (await call(name, 'useWorld', groupBounds().max, bounds().idleMs)) as string[]
      onDrops(reply[7] ?? '')
      return infoOf(reply)
    },
    async find(name) {
      if (name === DEFAULT) {
        const meta = await client.hgetall(keys.of(DEFAULT).session(DEFAULT)).catch(redisUnavailable)
        const { created = '0', okind = 'start-up', ofrom = '', oclock = '' } = meta
        const origin = Object.entries(meta).flatMap(([field, json]) =>
          field.startsWith('O:') ? [`"${field.slice(2)}":${json}`] : [],
        )
        return infoOf([
          DEFAULT,
          created,
          created,
          okind,
          ofrom,
          oclock,
          origin.length === 0 ? '' : `{${origin.join(',')}}`,
        ])
      }
      return (await list(name))[0]
    },
    list: () => list(''),
    async put(name, origin) {
      const maxPets = policy?.maxPets ?? Number.MAX_SAFE_INTEGER
      const answer = (await call(
        name,
        'putWorld',
        groupBounds().max,
        bounds().idleMs,
        ...(await originArgs(name, origin, maxPets)),
      )) as unknown[]
      if (answer[0] === -2) throw sessionTooLarge(maxPets, Number(answer[1]))
      const reply = answer as string[]
      if (name !== DEFAULT) handles.delete(name)
      onDrops(reply[7] ?? '')
      return infoOf(reply)
    },
    async delete(name) {
      const deleted = (await call(name, 'deleteWorld')) === 1
      handles.delete(name)
      return deleted
    },
  }

  async function list(only: string): Promise<SharedSessionInfo[]> {
    const groups = only === '' ? keys.groups : [keys.of(only)]
    const replies = await Promise.all(
      groups.map(async (group) => (await defaultWorld.runIn(group, 'listWorlds', bounds().idleMs, only)) as string[]),
    )
    const found: SharedSessionInfo[] = []
    for (const reply of replies) {
      onDrops(reply.at(-1) ?? '')
      for (let index = 0; index + 7 <= reply.length - 1; index += 7) found.push(infoOf(reply.slice(index, index + 7)))
    }
    // Each group's most recently used first; across groups too.
    return replies.length === 1 ? found : found.sort((a, b) => b.lastUsed - a.lastUsed)
  }

  /** Returns putWorld's ARGV from 7 on, writing a capsule's keys first. */
  async function originArgs(name: SessionName, origin: SharedOrigin, maxPets: number): Promise<Array<string | number>> {
    const { clock, ...rest } = origin.settings
    const settings = Object.entries(rest).flatMap(([setting, value]) => [setting, JSON.stringify(value)])
    const head = [origin.kind, origin.kind === 'fork' ? origin.from : '', clock ?? '']
    if (origin.kind === 'fork' && keys.of(origin.from) !== keys.of(name)) {
      // Another group is another slot: read here, written as a capsule (D44).
      const source = await readWorld(origin.from)
      return [
        ...head,
        ...(await writeOrigin(name, source.pets, source.quotas, source.nextId)),
        maxPets,
        ...settings,
        ...source.settings,
      ]
    }
    if (origin.kind !== 'capsule') return [...head, '', '', '', maxPets, ...settings]
    const quotas = [...origin.quotas].map(([bucket, counts]): [string, string] => [bucket, packBucket(counts)])
    return [...head, ...(await writeOrigin(name, origin.pets, quotas, origin.nextId)), maxPets, ...settings]
  }

  async function readWorld(from: SessionName) {
    const world = handle(from)
    const pets = await world.allPets()
    const [, nextId] = (await world.run('petCounts')) as [number, number]
    const group = keys.of(from)
    const meta = await client.hgetall(group.session(from)).catch(redisUnavailable)
    const settings = Object.entries(meta).flatMap(([field, value]) =>
      field.startsWith('S:') ? [field.slice(2), value] : [],
    )
    const bucketsKey =
      meta.gen !== undefined
        ? group.world(from, meta.gen, 'q')
        : group.baseQuotas((await client.hget(group.meta, 'base').catch(redisUnavailable)) ?? '')
    const quotas = Object.entries(await client.hgetall(bucketsKey).catch(redisUnavailable))
    return { pets, quotas, nextId, settings }
  }

  /** Writes pets and buckets under a new `o<gen>` of `name`; returns putWorld's ARGV 10 to 12. */
  async function writeOrigin(
    name: SessionName,
    pets: readonly Pet[],
    quotas: ReadonlyArray<[string, string]>,
    firstId: number,
  ): Promise<Array<string | number>> {
    const group = keys.of(name)
    const ogen = String(await client.incr(group.worlds).catch(redisUnavailable))
    const at = (part: string) => group.world(name, `o${ogen}`, part)
    // They expire should this process stop before the script adopts them.
    const written = new Set<string>()
    let batch = client.pipeline()
    let size = 0
    let nextId = firstId
    for (const pet of pets) {
      const id = String(pet.id)
      batch.hset(at('pets'), id, JSON.stringify(storedPet(pet)))
      batch.zadd(at('ids'), pet.id, id)
      written.add(at('pets')).add(at('ids'))
      if (pet.status !== undefined) {
        batch.zadd(at(`ids:${pet.status}`), pet.id, id)
        written.add(at(`ids:${pet.status}`))
      }
      nextId = Math.max(nextId, pet.id + 1)
      if (++size >= 1_000) {
        await exec(batch)
        batch = client.pipeline()
        size = 0
      }
    }
    for (const [bucket, packed] of quotas) {
      batch.hset(at('q'), bucket, packed)
      written.add(at('q'))
    }
    for (const key of written) batch.pexpire(key, 600_000)
    await exec(batch)
    return [ogen, nextId, pets.length]
  }

  return {
    sessions,
    boundKeys,
    bound(next: SharedSessionsPolicy): SharedSessions {
      policy = next
      return sessions
    },
    default: defaultWorld,
    generation: (session: string | undefined) =>
      (session === undefined ? defaultWorld : handles.peek(session))?.generation() ?? '',
    close: () => clearInterval(timer),
  }
}

function infoOf([
  name = '',
  created = '0',
  lastUsed = '0',
  kind = 'start-up',
  from = '',
  clock = '',
  settings = '',
]: string[]): SharedSessionInfo {
  return {
    name: kept(name),
    created: Number(created),
    lastUsed: Number(lastUsed),
    origin: {
      kind: kind as OriginKind,
      ...(from === '' ? {} : { from: kept(from) }),
      settings: {
        ...(settings === '' ? {} : (JSON.parse(settings) as Partial<WorldSettings>)),
        ...(clock === '' ? {} : { clock: Number(clock) }),
      },
    },
  }
}

async function exec(pipeline: ReturnType<RedisClient['pipeline']>): Promise<void> {
  const results = (await pipeline.exec().catch(redisUnavailable)) ?? []
  for (const [error] of results) if (error) redisUnavailable(error)
}

/** Reads a session name the scripts answer; checked on the way in, it passes again. */
function kept(name: string): SessionName {
  return checkSessionName(name, 'a session name kept in Redis')
}
