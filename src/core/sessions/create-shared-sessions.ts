import type { Timing } from '../state/maybe-promise.js'
import type { SharedSessionInfo, SharedSessions, SharedSessionsPolicy } from '../state/shared-state.js'
import { createLru } from '../cache/create-lru.js'
import { defaultNotDeleted } from './session-errors.js'
import type { SessionRegistry, SessionsOptions } from './session-lifecycle.js'
import type { Origin } from './origin.js'
import { DEFAULT_SESSION, type SessionName } from './session-name.js'
import type { World } from './world.js'
import { originFromShared, sharedOriginOf } from './world-table.js'

export interface SharedSessionsOptions<W extends World<Timing>> extends Omit<SessionsOptions<W>, 'now'> {
  shared: (policy: SharedSessionsPolicy) => SharedSessions
  source: () => number
  startUp: Origin
}

/** Creates the registry on a shared state, which decides (D34). */
export function createSharedSessions<W extends World<Timing>>(options: SharedSessionsOptions<W>): SessionRegistry<W> {
  const { default: defaultWorld, fresh, dispose, max, startUp } = options
  const met = createLru<W>(() => max)
  const forget = (name: SessionName) => {
    const world = met.peek(name)
    if (world === undefined) return
    met.delete(name)
    dispose(world)
  }
  const shared = options.shared({
    max,
    idleMs: options.idleMs,
    source: options.source,
    onDrop(name, reason) {
      forget(name)
      options.onDrop?.(name, reason)
    },
    onStale: forget,
  })

  const adopt = (world: W, info: SharedSessionInfo): W => {
    world.created = info.created
    if (world.session !== undefined) world.lastUsed = info.lastUsed
    world.origin = originFromShared(info.origin, startUp)
    return world
  }
  // Beyond `max` a world goes here; its session lives on in the state.
  const keep = (world: W): W => {
    world.refresh ??= async () => {
      adopt(world, await shared.use(world.name))
    }
    return met.put(world.name, world)
  }
  const local = (name: SessionName): W => met.use(name) ?? keep(fresh(name))
  defaultWorld.refresh = async () => {
    const info = await shared.find(DEFAULT_SESSION)
    if (info !== undefined) adopt(defaultWorld, info)
  }

  return {
    default: defaultWorld,
    use: (name) => (name === DEFAULT_SESSION ? defaultWorld : met.use(name)),
    add: keep,
    async find(name) {
      if (name === DEFAULT_SESSION) return defaultWorld
      const info = await shared.find(name)
      if (info === undefined) {
        forget(name)
        return undefined
      }
      return adopt(local(name), info)
    },
    async list() {
      const infos = await shared.list()
      return [defaultWorld, ...infos.map((info) => adopt(local(info.name), info))]
    },
    async put(world) {
      const info = await shared.put(world.name, sharedOriginOf(world.origin))
      if (met.peek(world.name) !== world) forget(world.name)
      return adopt(keep(world), info)
    },
    async delete(name) {
      if (name === DEFAULT_SESSION) throw defaultNotDeleted()
      const deleted = await shared.delete(name)
      forget(name)
      return deleted
    },
    used(name) {
      // Ordered before the call's commands on one connection.
      if (name !== DEFAULT_SESSION) shared.use(name).catch(() => undefined)
    },
    async putDefault(origin) {
      adopt(defaultWorld, await shared.put(DEFAULT_SESSION, sharedOriginOf(origin)))
    },
  }
}
