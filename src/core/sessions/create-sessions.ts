import type { MaybePromise } from '../state/maybe-promise.js'
import type { DropReason } from '../state/shared-state.js'
import type { Origin } from './origin.js'
import { createLru } from '../cache/create-lru.js'
import { SessionConflict } from './session-errors.js'
import { DEFAULT_SESSION } from './session-name.js'

export type { DropReason }

/** Which named sessions `sessions.deleteAll` deletes: every one, or those starting with `prefix`. */
export interface DeleteSessionsOptions {
  prefix?: string
}

/** What the registry keeps of a world: its name, and when it was last used. */
export interface Registered {
  readonly name: string
  lastUsed: number
}

/** The sessions of a sandbox, in its memory or in a shared state (create-shared-sessions.ts). */
export interface SessionRegistry<W extends Registered> {
  readonly default: W
  /** Returns the world kept of session `name`, counting a use; undefined when none, for `add`. */
  use(name: string): W | undefined
  /** Keeps `world`, made from the start-up world for a session first met in a request or a call. */
  add(world: W): W
  /** The world of session `name` if it exists, without making it or counting a use. */
  find(name: string): MaybePromise<W | undefined>
  /** Keeps a session first met in a request only once admission lets it through (in memory, D34). */
  readonly keepsAfterAdmission?: boolean
  /** Every session: the default first, then the most recently used. */
  list(): MaybePromise<W[]>
  /** Puts `world` in the registry as session `world.name`, replacing one of that name. */
  put(world: W): MaybePromise<W>
  /** Deletes a named session; false when there is none. The default session cannot be deleted. */
  delete(name: string): MaybePromise<boolean>
  /** Counts a use other than by a request, for a shared registry. */
  used?(name: string): void
  /** Keeps the default session's new origin where every process finds it. */
  putDefault?(origin: Origin): Promise<void>
}

export interface SessionsOptions<W extends Registered> {
  /** The default session's world, which is never dropped. */
  default: W
  /** Makes a fresh world for a session a shared state lists and this process has not met. */
  fresh(name: string): W
  /** Lets go of a world that leaves the registry (dropped, deleted or replaced). */
  dispose(world: W): void
  /** Named sessions kept at most (the default excluded); beyond it the least recently used goes. */
  max: number
  /** A named session unused this long, by the default session's clock, is dropped. */
  idleMs: number
  /** The default session's clock (docs/decisions.md#d34: a test moves it to expire sessions). */
  now: () => number
  /** Told of every drop (the CLI prints a line). */
  onDrop?: ((name: string, reason: DropReason) => void) | undefined
}

// Idle sessions are looked for at most this often, by the default session's clock.
const SWEEP_EVERY_MS = 1000

/** Creates the in-memory session registry (D34), sweeping idle ones lazily, so no timer is needed. */
export function createSessions<W extends Registered>({
  default: defaultWorld,
  dispose,
  max,
  idleMs,
  now,
  onDrop,
}: SessionsOptions<W>): SessionRegistry<W> & { size(): number } {
  let sweptAt = Number.NEGATIVE_INFINITY
  const drop = (world: W, reason: DropReason | undefined) => {
    dispose(world)
    if (reason !== undefined) onDrop?.(world.name, reason)
  }
  // Beyond `max`, the least recently used goes first.
  const named = createLru<W>(
    () => max,
    (world) => drop(world, { kind: 'least-recently-used', max }),
  )
  const remove = (world: W, reason: DropReason | undefined) => {
    named.delete(world.name)
    drop(world, reason)
  }

  function sweep(at: number): void {
    // Also when the clock went back: a clock moved back must not keep every session from expiring.
    if (at - sweptAt < SWEEP_EVERY_MS && at >= sweptAt) return
    sweptAt = at
    for (const world of named.values()) {
      if (at - world.lastUsed < idleMs) break
      remove(world, { kind: 'idle', idleMs })
    }
  }

  function add(world: W, at: number): W {
    world.lastUsed = at
    return named.put(world.name, world)
  }

  return {
    default: defaultWorld,
    /** Returns session `name`'s world, counting a use; undefined when there is none. */
    use(name: string): W | undefined {
      if (name === DEFAULT_SESSION) return defaultWorld
      const at = now()
      sweep(at)
      const found = named.use(name)
      if (found !== undefined) found.lastUsed = at
      return found
    },
    /** Keeps `world`, made for a session first met. */
    add: (world: W): W => add(world, now()),
    /** The world of session `name` if it exists, without making it or counting a use. */
    find(name: string): W | undefined {
      if (name === DEFAULT_SESSION) return defaultWorld
      sweep(now())
      return named.peek(name)
    },
    keepsAfterAdmission: true,
    /** Every session: the default first, then the most recently used. */
    list(): W[] {
      sweep(now())
      return [defaultWorld, ...[...named.values()].reverse()]
    },
    /** Puts `world` in the registry as session `world.name`, replacing one of that name. */
    put(world: W): W {
      const at = now()
      sweep(at)
      const replaced = named.peek(world.name)
      if (replaced !== undefined) remove(replaced, undefined)
      return add(world, at)
    },
    /** Deletes a named session; false when there is none. The default session cannot be deleted. */
    delete(name: string): boolean {
      if (name === DEFAULT_SESSION) throw defaultNotDeleted()
      const found = named.peek(name)
      if (found === undefined) return false
      remove(found, undefined)
      return true
    },
    /** How many named sessions there are (the default excluded). */
    size: named.size,
  }
}

export type Sessions<W extends Registered> = ReturnType<typeof createSessions<W>>

/** The refusal to delete the default session, worded alike by every registry. */
export function defaultNotDeleted(): SessionConflict {
  return new SessionConflict('the default session cannot be deleted: reset it, or PUT it to start it over')
}
